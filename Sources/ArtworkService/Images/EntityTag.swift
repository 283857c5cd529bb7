import ArtworkCore
import HTTP

/// Conditional GETs: whether a client's `If-None-Match` names the body it would get.
enum EntityTag {
  /// Whether an `If-None-Match` value matches `etag` (weak comparison, RFC 9110 13.1.2).
  static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
    for candidate in ifNoneMatch.split(separator: ",") {
      var tag = HeaderSyntax.trimmed(String(candidate))
      if tag == "*" { return true }
      if tag.hasPrefix("W/") { tag.removeFirst(2) }
      if tag == etag { return true }
    }
    return false
  }

  /// Whether `request` asks for a body it holds already, tagged `etag`. The tag is made only
  /// when the request names one: a hosted GET without `If-None-Match` allocates nothing here.
  static func isNotModified(_ request: HTTPRequest, etag: @autoclosure () -> String) -> Bool {
    guard let ifNoneMatch = request.headers["If-None-Match"] else { return false }
    return matches(ifNoneMatch, etag: etag())
  }
}
