import ArtworkCore
import JSON

/// Plex's webhooks (plex.tv → Account → Webhooks): `multipart/form-data` with a JSON field
/// `payload` (`event`: `library.new`, `media.play`...; `Metadata`: `type`, `title`,
/// `grandparentTitle`, `parentIndex`, `index`, `year`, `thumb`...) and, on some events, a JPEG
/// part: the artwork itself, used as it is. `Metadata.thumb` is a path on the Plex server that
/// needs a Plex token: it is never fetched. A bare JSON body is read as the payload (the page
/// takes one pasted).
enum PlexReader {
  static let expected =
    "Plex's webhook: multipart/form-data with a JSON \"payload\" field holding event and Metadata"

  static func read(_ input: ProviderInput) throws(ArtworkError) -> ProviderEvent {
    let payload = try ProviderBody.object(
      input, provider: .plex, field: "payload", expected: expected)
    guard let event = payload["event"]?.nonEmptyString else {
      throw ProviderBody.notTheirs(.plex, expected: expected, found: "a payload without event")
    }
    guard let metadata = payload["Metadata"], metadata.isObject,
      let item = item(metadata)
    else {
      return ProviderEvent(provider: .plex, event: event, item: nil, image: .none(.noItem))
    }
    var image = ImageSource.none(.noImage)
    if ProviderBody.isMultipart(input.contentType),
      let part = try ProviderBody.multipart(input, provider: .plex, expected: expected)
        .first(where: isImage), !part.body.isEmpty
    {
      image = .bytes(part.body, contentType: part.contentType)
    }
    return ProviderEvent(provider: .plex, event: event, item: item, image: image)
  }

  /// The item of a payload's `Metadata`.
  static func item(_ metadata: JSONValue) -> ProviderItem? {
    let title = metadata["title"]?.scalar
    let year = ArrImages.year(metadata["year"])
    switch metadata["type"]?.scalar?.lowercased() {
    case "episode":
      let show = metadata["grandparentTitle"]?.scalar ?? title ?? ""
      guard let season = metadata["parentIndex"]?.integer else {
        return ProviderItem(kind: .episode, title: show, subtitle: title, year: year)
      }
      let number = metadata["index"]?.integer
      return ProviderItem(
        kind: .episode, title: show,
        subtitle: ProviderItem.episodeLabel(
          season: season, episodes: [number].compactMap { $0 }, title: title),
        year: year, season: season, episode: number)
    case "season":
      return ProviderItem(
        kind: .season, title: metadata["parentTitle"]?.scalar ?? title ?? "", subtitle: title,
        year: year, season: metadata["index"]?.integer)
    case "movie": return title.map { ProviderItem(kind: .movie, title: $0, year: year) }
    case "show": return title.map { ProviderItem(kind: .series, title: $0, year: year) }
    case "track":
      return title.map {
        ProviderItem(
          kind: .track, title: $0, subtitle: metadata["grandparentTitle"]?.scalar, year: year)
      }
    case "album":
      return title.map {
        ProviderItem(kind: .album, title: $0, subtitle: metadata["parentTitle"]?.scalar, year: year)
      }
    case "artist": return title.map { ProviderItem(kind: .artist, title: $0) }
    default: return title.map { ProviderItem(kind: .other, title: $0, year: year) }
    }
  }

  /// Whether a part is the image: a file part, or one declared as an image (Plex names it
  /// `thumb`, `thumb.jpg`).
  private static func isImage(_ part: MultipartPart) -> Bool {
    guard part.name != "payload" else { return false }
    if let type = part.contentType, mediaTypeEssence(type).hasPrefix("image/") { return true }
    return part.name == "thumb" || part.filename != nil
  }
}
