internal import CCurl

/// A URL parsed by libcurl's own parser (`CURLU`), so that what the service checks (scheme, host,
/// user info) is exactly what curl will connect to: the handle is given to curl as is
/// (`CURLOPT_CURLU`), never re-serialised and re-parsed by something else.
public final class CurlURL {
  private let handle: OpaquePointer

  /// Parses an absolute URL with any scheme curl knows (the caller decides which it accepts);
  /// user info is kept so the caller can refuse it by name.
  /// nil for anything curl calls malformed (spaces, control characters, bad ports, bad hosts).
  public init?(_ text: String) {
    guard let handle = curl_url() else { return nil }
    self.handle = handle
    guard curl_url_set(handle, CURLUPART_URL, text, 0) == CURLUE_OK else { return nil }
  }

  private init(handle: OpaquePointer) {
    self.handle = handle
  }

  deinit { curl_url_cleanup(handle) }

  /// The URL `reference` points to when resolved against this one (a redirect's Location).
  public func resolving(_ reference: String) -> CurlURL? {
    guard let copy = curl_url_dup(handle) else { return nil }
    let resolved = CurlURL(handle: copy)
    guard curl_url_set(copy, CURLUPART_URL, reference, 0) == CURLUE_OK else { return nil }
    return resolved
  }

  /// The normalised URL text.
  public var string: String { part(CURLUPART_URL) ?? "" }
  /// Lower-case scheme.
  public var scheme: String { part(CURLUPART_SCHEME)?.lowercased() ?? "" }
  /// The host as curl will use it: IPv6 in brackets, IDN in punycode, normalised IPv4.
  public var host: String { part(CURLUPART_HOST, flags: artwork_curlu_punycode) ?? "" }
  /// The host without IPv6 brackets, lower case: the name a configured allow-list matches.
  public var hostName: String {
    var host = host.lowercased()
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    return host
  }
  /// The port, explicit or the scheme's default.
  public var port: Int {
    part(CURLUPART_PORT, flags: artwork_curlu_default_port).flatMap { Int($0) } ?? 0
  }
  /// True when the URL carries a user name, password or login options.
  public var hasUserInfo: Bool {
    part(CURLUPART_USER) != nil || part(CURLUPART_PASSWORD) != nil
      || part(CURLUPART_OPTIONS) != nil
  }

  private func part(_ what: CURLUPart, flags: UInt32 = 0) -> String? {
    var out: UnsafeMutablePointer<CChar>?
    guard curl_url_get(handle, what, &out, flags) == CURLUE_OK, let out else { return nil }
    defer { curl_free(out) }
    return String(cString: out)
  }

  /// Lends the handle to `CurlEasy` (which keeps this object alive while curl uses it).
  func withHandle<T>(_ body: (OpaquePointer) -> T) -> T { body(handle) }
}
