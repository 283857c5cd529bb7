/// The Primary image of an item on Jellyfin or Emby: `{server}/Items/{id}/Images/Primary`,
/// which needs no API key, asked for at most 1200 pixels high (both servers scale it, so a
/// large original never passes the source size limit).
enum MediaServerImage {
  /// The image of item `id` on `server`, or why there is none: no server address
  /// (`no-server`), or an id that is not one (`no-image`: only letters, digits and `-` make an
  /// id, so nothing from the body can change the path).
  static func source(server: String?, id: String?) -> ImageSource {
    guard let id, (1...64).contains(id.utf8.count),
      id.utf8.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") })
    else { return .none(.noImage) }
    guard let base = base(server) else { return .none(.noServer) }
    return .url("\(base)/Items/\(id)/Images/Primary?maxHeight=1200&quality=90")
  }

  /// A server address as the URL's base: trimmed, `http://` added when it has no scheme (the
  /// Jellyfin plugin's default is `localhost:8096`), without a trailing slash, query or
  /// fragment. Nil when there is none.
  static func base(_ server: String?) -> String? {
    guard var text = server?.trimmingSpaces, !text.isEmpty else { return nil }
    if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) {
      text = String(text[..<cut])
    }
    while text.hasSuffix("/") { text.removeLast() }
    guard !text.isEmpty else { return nil }
    if !text.contains("://") { text = "http://" + text }
    return ArrImages.isWebURL(text) ? text : nil
  }

  /// The kind of a Jellyfin or Emby item type (`Episode`, `MusicAlbum`...).
  static func kind(_ type: String?) -> ProviderItem.Kind {
    switch type?.lowercased() {
    case "movie": .movie
    case "series": .series
    case "season": .season
    case "episode": .episode
    case "boxset": .collection
    case "musicalbum": .album
    case "audio": .track
    case "musicartist": .artist
    default: .other
    }
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
  }
}
