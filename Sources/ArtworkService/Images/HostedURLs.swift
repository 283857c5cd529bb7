import ArtworkCore

/// The hosted URLs of stored objects: `{ARTWORK_PUBLIC_URL}/v1/images/{id}.{ext}`.
struct HostedURLs: Sendable {
  /// `ARTWORK_PUBLIC_URL`, without a trailing slash.
  let publicURL: String

  /// The hosted URL of a stored object.
  func url(for key: ArtworkKey) -> String { url(fileName: key.fileName) }

  /// The hosted URL of the object stored as `fileName` (`{id}.{ext}`, already validated).
  func url(fileName: String) -> String { "\(publicURL)/v1/images/\(fileName)" }

  /// The key of `url` when it is one of our hosted image URLs (nothing after the name), else
  /// nil.
  func key(of url: String) -> ArtworkKey? {
    let prefix = publicURL + "/v1/images/"
    guard url.hasPrefix(prefix) else { return nil }
    return ArtworkKey(fileName: String(url.dropFirst(prefix.count)))
  }

  /// The origin (`scheme://host[:port]`) of hosted image URLs.
  var origin: String {
    let afterScheme = publicURL.range(of: "://").map(\.upperBound) ?? publicURL.startIndex
    let slash = publicURL[afterScheme...].firstIndex(of: "/") ?? publicURL.endIndex
    return String(publicURL[..<slash])
  }
}
