import ArtworkCore

/// Jellyfin's webhook plugin, Generic destination with "Send All Properties": flat PascalCase
/// JSON (`ServerUrl`, `NotificationType`, `ItemId`, `ItemType`, `SeriesId`, `Name`,
/// `SeriesName`, `SeasonNumber`, `EpisodeNumber`, `Year`...), sent as `text/plain` unless told
/// otherwise. The artwork is the item's Primary image on `ServerUrl`; for an episode or a
/// season, its series' (an episode's own is a 16:9 still).
enum JellyfinReader {
  static let expected =
    "the JSON of Jellyfin's webhook plugin with \"Send All Properties\": an object with NotificationType, ServerUrl, ItemId and ItemType"

  static func read(_ input: ProviderInput) throws(ArtworkError) -> ProviderEvent {
    let body = try ProviderBody.object(input, provider: .jellyfin, expected: expected)
    guard let event = body["NotificationType"]?.nonEmptyString else {
      throw ProviderBody.notTheirs(.jellyfin, expected: expected, found: "no NotificationType")
    }
    guard let itemID = body["ItemId"]?.scalar else {
      let reason: NoArtworkReason = event.lowercased() == "test" ? .test : .noItem
      return ProviderEvent(provider: .jellyfin, event: event, item: nil, image: .none(reason))
    }
    let kind = MediaServerImage.kind(body["ItemType"]?.scalar)
    let name = body["Name"]?.scalar
    var item = ProviderItem(
      kind: kind, title: name ?? "", year: ArrImages.year(body["Year"]),
      season: body["SeasonNumber"]?.integer)
    var imageID = itemID
    switch kind {
    case .episode, .season:
      item.title = body["SeriesName"]?.scalar ?? name ?? ""
      imageID = body["SeriesId"]?.scalar ?? itemID
      if kind == .season {
        item.subtitle = name
      } else if let season = item.season {
        let number = body["EpisodeNumber"]?.integer
        item.episode = number
        let numbers = [number, body["EpisodeNumberEnd"]?.integer].compactMap { $0 }
        item.subtitle = ProviderItem.episodeLabel(season: season, episodes: numbers, title: name)
      } else {
        item.subtitle = name
      }
    case .album, .track:
      item.subtitle = body["Artist"]?.scalar
    default: break
    }
    let server = input.server ?? body["ServerUrl"]?.scalar
    return ProviderEvent(
      provider: .jellyfin, event: event, item: item,
      image: MediaServerImage.source(server: server, id: imageID))
  }
}
