import ArtworkCore

/// Radarr's webhook (Settings → Connect → Webhook), 5.8.1 and later: JSON with `eventType`
/// and a `movie` whose `images` hold the poster's `remoteUrl` at TMDB (`original`, asked for
/// at `w780`). Older versions and the Test event send no images.
enum RadarrReader {
  static let expected =
    "Radarr's webhook JSON: an object with eventType and, for media events, movie"

  static func read(_ input: ProviderInput) throws(ArtworkError) -> ProviderEvent {
    let (body, event) = try ArrImages.read(
      input, provider: .radarr, itemKey: "movie", expected: expected)
    // Grab events of some versions name the film only in `remoteMovie`.
    let movie = body["movie"]?.isObject == true ? body["movie"] : body["remoteMovie"]
    guard let movie, movie.isObject, let title = movie["title"]?.scalar else {
      return ProviderEvent(
        provider: .radarr, event: event, item: nil,
        image: .none(ArrImages.isTest(event) ? .test : .noItem))
    }
    let item = ProviderItem(kind: .movie, title: title, year: ArrImages.year(movie["year"]))
    let image: ImageSource =
      ArrImages.isTest(event)
      ? .none(.test) : .web(ArrImages.remoteURL(movie["images"], coverType: "poster"))
    return ProviderEvent(provider: .radarr, event: event, item: item, image: image)
  }
}
