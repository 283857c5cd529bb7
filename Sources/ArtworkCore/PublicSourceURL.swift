/// What anyone may read of the URL an image was made from: its scheme, host, port and path,
/// and nothing of its query, fragment or user info. A query may carry a credential no list
/// names (a media server's key under a new name, a signed URL's own parameter), and the
/// public facts (`GET /v1/images/{id}.json`) need none of it. Pure: no I/O.
public enum PublicSourceURL {
  /// `url` cut before its query or fragment, its user info dropped.
  public static func of(_ url: String) -> String {
    let end = url.firstIndex { $0 == "?" || $0 == "#" } ?? url.endIndex
    let kept = url[..<end]
    guard let schemeEnd = kept.range(of: "://") else { return String(kept) }
    let authorityStart = schemeEnd.upperBound
    let authorityEnd = kept[authorityStart...].firstIndex(of: "/") ?? kept.endIndex
    guard let at = kept[authorityStart..<authorityEnd].lastIndex(of: "@") else {
      return String(kept)
    }
    return String(kept[..<authorityStart] + kept[kept.index(after: at)...])
  }
}
