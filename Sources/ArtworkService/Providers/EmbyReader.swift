import ArtworkCore

/// Emby's webhooks (Settings → Notifications → Webhooks): JSON, or a multipart body whose
/// `data` field is that JSON, with `Event` (`library.new`, `playback.start`,
/// `system.notificationtest`...), `Item` (`Id`, `Type`, `Name`, `SeriesName`, `SeriesId`,
/// `ParentIndexNumber`, `IndexNumber`, `ProductionYear`) and `Server`. The body does not say
/// where the server is: the webhook's URL does, with `?server=`. Built from Emby's
/// documentation, unconfirmed against a running server (docs/providers.md says what).
enum EmbyReader {
  static let expected =
    "Emby's webhook JSON (or multipart with a \"data\" field holding it): an object with Event and Item"

  static func read(_ input: ProviderInput) throws(ArtworkError) -> ProviderEvent {
    let body = try ProviderBody.object(input, provider: .emby, field: "data", expected: expected)
    guard let event = body["Event"]?.nonEmptyString else {
      throw ProviderBody.notTheirs(.emby, expected: expected, found: "no Event")
    }
    let isTest = event.lowercased().hasSuffix("notificationtest")
    guard let itemObject = body["Item"], itemObject.isObject, let itemID = itemObject["Id"]?.scalar
    else {
      return ProviderEvent(
        provider: .emby, event: event, item: nil, image: .none(isTest ? .test : .noItem))
    }
    let kind = MediaServerImage.kind(itemObject["Type"]?.scalar)
    let name = itemObject["Name"]?.scalar
    var item = ProviderItem(
      kind: kind, title: name ?? "", year: ArrImages.year(itemObject["ProductionYear"]))
    var imageID = itemID
    switch kind {
    case .episode, .season:
      item.title = itemObject["SeriesName"]?.scalar ?? name ?? ""
      imageID = itemObject["SeriesId"]?.scalar ?? itemID
      if kind == .season {
        item.season = itemObject["IndexNumber"]?.integer
        item.subtitle = name
      } else if let season = itemObject["ParentIndexNumber"]?.integer {
        let number = itemObject["IndexNumber"]?.integer
        item.season = season
        item.episode = number
        item.subtitle = ProviderItem.episodeLabel(
          season: season, episodes: [number].compactMap { $0 }, title: name)
      } else {
        item.subtitle = name
      }
    case .track:
      item.subtitle = itemObject["AlbumArtist"]?.scalar ?? itemObject["Album"]?.scalar
      imageID = itemObject["AlbumId"]?.scalar ?? itemID
    case .album:
      item.subtitle = itemObject["AlbumArtist"]?.scalar
    default: break
    }
    if isTest {
      return ProviderEvent(provider: .emby, event: event, item: item, image: .none(.test))
    }
    let server = input.server ?? body["Server"]?["Url"]?.scalar
    return ProviderEvent(
      provider: .emby, event: event, item: item,
      image: MediaServerImage.source(server: server, id: imageID))
  }
}
