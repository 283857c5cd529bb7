import ArtworkCore
import HTTP

/// What a caller asks of a source URL's remembered result and of the time it will wait, read
/// from its headers: `Cache-Control: no-cache` (or `max-age=0`, or `Pragma: no-cache`) asks the
/// origin again; `Prefer: wait=N` (RFC 7240) bounds the wait for the artwork to N seconds.
struct RequestPreferences: Sendable, Equatable {
  /// The most a caller may ask to wait: the longest any source can take is well under it.
  static let maxWait = 120

  /// The caller wants the origin asked again, not a remembered answer.
  var revalidate = false
  /// Seconds the caller will wait for the artwork (nil: as long as it takes).
  var wait: Int?

  init(revalidate: Bool = false, wait: Int? = nil) {
    self.revalidate = revalidate
    self.wait = wait
  }

  init(_ headers: HTTPHeaders) {
    revalidate =
      headers.values("cache-control").contains { Self.asksRevalidation(cacheControl: $0) }
      || headers.values("pragma").contains { Self.tokens($0).contains("no-cache") }
    wait = headers.values("prefer").lazy.compactMap(Self.wait(prefer:)).first
  }

  /// Whether a `Cache-Control` value asks for revalidation: `no-cache`, or `max-age=0`.
  static func asksRevalidation(cacheControl: String) -> Bool {
    tokens(cacheControl).contains { $0 == "no-cache" || $0 == "max-age=0" }
  }

  /// The `wait` preference of one `Prefer` value (`wait=5`, `respond-async, wait=10`), clamped
  /// to `maxWait`; nil when it has none or its value is not a count of seconds.
  static func wait(prefer: String) -> Int? {
    for token in tokens(prefer) {
      // A preference's parameters follow `;`; only the preference's own value counts.
      let preference = token.split(separator: ";", maxSplits: 1).first ?? ""
      let parts = preference.split(separator: "=", maxSplits: 1)
      guard parts.count == 2, parts[0].trimmed() == "wait" else { continue }
      var value = parts[1].trimmed()
      if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
        value = String(value.dropFirst().dropLast())
      }
      guard !value.isEmpty, value.count <= 9, value.allSatisfy({ $0.isASCII && $0.isNumber })
      else { return nil }
      return min(Int(value) ?? 0, maxWait)
    }
    return nil
  }

  /// The comma-separated elements of a header value, trimmed and lower-cased.
  private static func tokens(_ value: String) -> [String] {
    value.split(separator: ",").map { $0.trimmed().lowercased() }
  }
}

extension Substring {
  fileprivate func trimmed() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
