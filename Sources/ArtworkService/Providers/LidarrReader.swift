import ArtworkCore
import JSON

/// Lidarr's webhook (Settings → Connect → Webhook), 2.10 and later: JSON with `eventType`, an
/// `artist`, and the `album` (Download) or `albums` (Grab). The album's `cover` is square art;
/// without one, the artist's `poster`.
enum LidarrReader {
  static let expected =
    "Lidarr's webhook JSON: an object with eventType and, for media events, artist"

  static func read(_ input: ProviderInput) throws(ArtworkError) -> ProviderEvent {
    let (body, event) = try ArrImages.read(
      input, provider: .lidarr, itemKey: "artist", expected: expected)
    let artist = body["artist"]
    let album =
      body["album"]?.isObject == true
      ? body["album"] : body["albums"]?.elements.first(where: \.isObject)
    let artistName = artist?["name"]?.scalar
    let item: ProviderItem
    if let album, let title = album["title"]?.scalar {
      item = ProviderItem(kind: .album, title: title, subtitle: artistName, year: year(album))
    } else if let artistName {
      item = ProviderItem(kind: .artist, title: artistName)
    } else {
      return ProviderEvent(
        provider: .lidarr, event: event, item: nil,
        image: .none(ArrImages.isTest(event) ? .test : .noItem))
    }
    guard !ArrImages.isTest(event) else {
      return ProviderEvent(provider: .lidarr, event: event, item: item, image: .none(.test))
    }
    let url =
      ArrImages.remoteURL(album?["images"], coverType: "cover")
      ?? ArrImages.remoteURL(artist?["images"], coverType: "poster")
    return ProviderEvent(provider: .lidarr, event: event, item: item, image: .web(url))
  }

  /// The year of an album's `releaseDate` (`2011-09-12T00:00:00Z`).
  private static func year(_ album: JSONValue) -> Int? {
    guard let date = album["releaseDate"]?.scalar, date.count >= 4 else { return nil }
    return ArrImages.year(.string(String(date.prefix(4))))
  }
}
