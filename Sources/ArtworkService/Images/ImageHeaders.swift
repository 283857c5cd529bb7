import ArtworkCore
import HTTP

/// The headers of bodies that never change under their URL: hosted images and ThumbHash
/// placeholders.
enum ImageHeaders {
  /// A hosted image's: immutable, its ETag the id (content-addressed); `body` false for a 304.
  static func of(_ key: ArtworkKey, body: Bool) -> HTTPHeaders {
    var headers = immutable(contentType: body ? key.format.contentType : nil)
    headers.set("ETag", etag(key))
    return headers
  }

  static func etag(_ key: ArtworkKey) -> String { "\"\(key.id.hex)\"" }

  /// Cached for a year anywhere, its declared type never second-guessed by a browser, and
  /// readable by a page on any origin (into a canvas, by `fetch`): it is public by its URL,
  /// whatever `ARTWORK_CORS_ORIGINS` says.
  static func immutable(contentType: String?) -> HTTPHeaders {
    var headers = HTTPHeaders()
    headers.set("Cache-Control", ArtworkKey.cacheControl)
    headers.set("X-Content-Type-Options", "nosniff")
    headers.set("Access-Control-Allow-Origin", "*")
    headers.set("Cross-Origin-Resource-Policy", "cross-origin")
    if let contentType { headers.set("Content-Type", contentType) }
    return headers
  }
}
