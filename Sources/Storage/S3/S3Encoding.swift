/// The URI encoding S3 and SigV4 expect. libcurl 7.88 signs the path and query exactly as given,
/// so they must already be in canonical form when they reach curl.
enum S3Encoding {
  /// RFC 3986 unreserved bytes: `A-Z a-z 0-9 - . _ ~`.
  static func isUnreserved(_ byte: UInt8) -> Bool {
    (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
      || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
  }

  /// Percent-encodes every UTF-8 byte except the unreserved ones (and `/` when `keepSlash`),
  /// with uppercase hex digits, as SigV4's canonical URI and query require.
  static func encode(_ text: String, keepSlash: Bool) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if isUnreserved(byte) || (keepSlash && byte == 0x2F) {
        out.append(byte)
      } else {
        out.append(0x25)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// An object key as a URL path: each byte encoded except unreserved ones and `/`.
  static func encodeKey(_ key: String) -> String { encode(key, keepSlash: true) }

  /// A canonical query string: names and values fully encoded (`/` too), sorted by encoded name
  /// then value, every parameter as `name=value` (valueless ones as `name=`).
  static func canonicalQuery(_ parameters: [(name: String, value: String)]) -> String {
    parameters
      .map { (encode($0.name, keepSlash: false), encode($0.value, keepSlash: false)) }
      .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
      .map { "\($0.0)=\($0.1)" }
      .joined(separator: "&")
  }
}
