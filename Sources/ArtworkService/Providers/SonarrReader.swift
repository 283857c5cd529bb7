import ArtworkCore

/// Sonarr's webhook (Settings → Connect → Webhook), v4.0.5 and later: JSON with `eventType`
/// and a `series` whose `images` hold the poster's public `remoteUrl` (TheTVDB); the episodes
/// in `episodes`. v3 and the Test event send no images.
enum SonarrReader {
  static let expected =
    "Sonarr's webhook JSON: an object with eventType and, for media events, series"

  static func read(_ input: ProviderInput) throws(ArtworkError) -> ProviderEvent {
    let (body, event) = try ArrImages.read(
      input, provider: .sonarr, itemKey: "series", expected: expected)
    guard let series = body["series"], series.isObject, let title = series["title"]?.scalar else {
      return ProviderEvent(
        provider: .sonarr, event: event, item: nil,
        image: .none(ArrImages.isTest(event) ? .test : .noItem))
    }
    let episodes = (body["episodes"]?.elements ?? []).filter(\.isObject)
    var item = ProviderItem(kind: .series, title: title, year: ArrImages.year(series["year"]))
    if let first = episodes.first, let season = first["seasonNumber"]?.integer {
      let numbers = episodes.compactMap { $0["episodeNumber"]?.integer }
      item.kind = .episode
      item.season = season
      item.episode = numbers.first
      item.subtitle = ProviderItem.episodeLabel(
        season: season, episodes: numbers, title: first["title"]?.scalar)
    }
    let image: ImageSource =
      ArrImages.isTest(event)
      ? .none(.test) : .web(ArrImages.remoteURL(series["images"], coverType: "poster"))
    return ProviderEvent(provider: .sonarr, event: event, item: item, image: image)
  }
}
