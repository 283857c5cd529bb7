/// Which web pages on other origins may call the server from a browser (CORS, the Fetch
/// standard): the origins let in, the request headers they may send, the answer headers they
/// may read. Applied by the server to every answer of a request that carried `Origin`, errors
/// included (a page must be able to read a problem), and to preflights, which it answers itself.
public struct CrossOriginPolicy: Sendable, Equatable {
  /// The origins let in.
  public enum Origins: Sendable, Equatable {
    /// Every origin (`Access-Control-Allow-Origin: *`).
    case any
    /// Exactly these serialized origins (`https://app.example.com`), compared lower case.
    case only(Set<String>)
  }

  /// The origins let in.
  public var origins: Origins
  /// Request headers a page may send beyond the CORS-safelisted ones.
  public var allowedHeaders: [String]
  /// Answer headers a page may read beyond the CORS-safelisted ones.
  public var exposedHeaders: [String]
  /// How long a browser may remember a preflight's answer, in seconds.
  public var maxAge: Int

  /// No origin let in: answers carry no CORS fields and preflights are refused.
  public static let closed = CrossOriginPolicy(origins: .only([]))

  /// A policy letting `origins` in.
  public init(
    origins: Origins,
    allowedHeaders: [String] = [
      "Authorization", "Content-Type", "X-Request-Id", "Prefer", "Cache-Control",
    ],
    exposedHeaders: [String] = [
      "Location", "X-Request-Id", "Retry-After", "ETag", "Age", "Artwork-Status",
      "Artwork-Changed", "Preference-Applied",
    ],
    maxAge: Int = 600
  ) {
    switch origins {
    case .any: self.origins = .any
    case .only(let list): self.origins = .only(Set(list.map { $0.lowercased() }))
    }
    self.allowedHeaders = allowedHeaders
    self.exposedHeaders = exposedHeaders
    self.maxAge = maxAge
  }

  /// Whether any origin is let in at all.
  public var isOpen: Bool { origins != .only([]) }

  /// The `Access-Control-Allow-Origin` value for a request from `origin`, or nil when it is not
  /// let in.
  func allowOrigin(for origin: String) -> String? {
    switch origins {
    case .any: return "*"
    case .only(let list): return list.contains(origin.lowercased()) ? origin : nil
    }
  }

  /// Adds the fields of an actual (not preflight) answer to a request from `origin` (nil: not
  /// from a page on another origin). Answers that depend on the origin say so (`Vary`), so that
  /// a shared cache does not hand one origin's answer to another.
  func decorate(_ headers: inout HTTPHeaders, origin: String?) {
    // A route that set its own (public images: `*`) has decided for itself.
    guard headers["Access-Control-Allow-Origin"] == nil else { return }
    if origins != .any { headers.add("Vary", "Origin") }
    guard let origin, let allowed = allowOrigin(for: origin) else { return }
    headers.set("Access-Control-Allow-Origin", allowed)
    if !exposedHeaders.isEmpty {
      headers.set("Access-Control-Expose-Headers", exposedHeaders.joined(separator: ", "))
    }
  }

  /// The answer to a preflight from `origin` for `methods` (those the path has), or nil when
  /// the origin is not let in.
  func preflightHeaders(origin: String, methods: [String]) -> HTTPHeaders? {
    guard let allowed = allowOrigin(for: origin) else { return nil }
    var headers = HTTPHeaders()
    headers.set("Access-Control-Allow-Origin", allowed)
    headers.set("Access-Control-Allow-Methods", methods.joined(separator: ", "))
    if !allowedHeaders.isEmpty {
      headers.set("Access-Control-Allow-Headers", allowedHeaders.joined(separator: ", "))
    }
    headers.set("Access-Control-Max-Age", String(maxAge))
    if origins != .any { headers.set("Vary", "Origin") }
    headers.set("Cache-Control", "no-store")
    return headers
  }
}
