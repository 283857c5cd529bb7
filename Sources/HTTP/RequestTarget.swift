/// The request-target of a request line, split and percent-decoded.
///
/// The path is split into segments on the raw `/` before decoding, so an encoded slash (`%2F`)
/// stays inside one segment and never changes which route matches.
struct RequestTarget: Sendable, Equatable {
  /// The path exactly as sent, without the query.
  var rawPath: String
  /// The decoded path.
  var path: String
  /// The decoded path segments (the empty segment before the leading `/` is not included).
  var segments: [String]
  /// Decoded query parameters; the last value of a repeated name wins.
  var query: [String: String]

  /// Parses an origin-form target (`/a/b?x=1`); an absolute-form target
  /// (`http://host/a?x=1`) keeps only its path and query. Nil when the target is not a path,
  /// has a malformed escape, or decodes to NUL or invalid UTF-8 in the path.
  init?(_ target: String) {
    // NOTE: byte-wise (UTF8View) throughout: every request parses its target, and
    // Character-wise searches pay for grapheme breaking.
    let slash = UInt8(ascii: "/")
    var raw = Substring(target)
    if raw.utf8.first != slash {
      // Absolute form: drop `scheme://authority`.
      guard let colon = raw.utf8.firstIndex(of: UInt8(ascii: ":")),
        raw.utf8[colon...].starts(with: "://".utf8)
      else { return nil }
      let afterAuthority = raw[raw.utf8.index(colon, offsetBy: 3)...]
      raw = afterAuthority.utf8.firstIndex(of: slash).map { afterAuthority[$0...] } ?? "/"
    }
    let rawPath: Substring
    let rawQuery: Substring?
    if let mark = raw.utf8.firstIndex(of: UInt8(ascii: "?")) {
      rawPath = raw[..<mark]
      rawQuery = raw[raw.utf8.index(after: mark)...]
    } else {
      rawPath = raw
      rawQuery = nil
    }
    var segments: [String] = []
    // One allocation for the segments, not one per doubling: every request parses its target.
    segments.reserveCapacity(rawPath.utf8.reduce(0) { $1 == slash ? $0 + 1 : $0 })
    var start = rawPath.utf8.index(after: rawPath.startIndex)
    while true {
      let end = rawPath.utf8[start...].firstIndex(of: slash) ?? rawPath.endIndex
      guard let decoded = Self.decode(rawPath[start..<end], plusIsSpace: false),
        !decoded.utf8.contains(0)
      else { return nil }
      segments.append(decoded)
      guard end < rawPath.endIndex else { break }
      start = rawPath.utf8.index(after: end)
    }
    self.rawPath = String(rawPath)
    // Without an escape the decoded path is the raw one: no second string to build.
    self.path =
      rawPath.utf8.contains(UInt8(ascii: "%"))
      ? "/" + segments.joined(separator: "/") : self.rawPath
    self.segments = segments
    self.query = rawQuery.map(Self.parseQuery) ?? [:]
  }

  /// Decodes `name=value&...`; pairs that do not decode are skipped.
  static func parseQuery(_ query: Substring) -> [String: String] {
    var result: [String: String] = [:]
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = decode(parts[0], plusIsSpace: true), !name.isEmpty,
        let value = decode(parts.count > 1 ? parts[1] : "", plusIsSpace: true)
      else { continue }
      result[name] = value
    }
    return result
  }

  /// Percent-decodes `text`; nil on a malformed escape or bytes that are not UTF-8.
  static func decode(_ text: Substring, plusIsSpace: Bool) -> String? {
    let plain = !text.utf8.contains { byte in
      byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+"))
    }
    // A Substring is valid UTF-8 already: nothing to decode or check.
    if plain { return String(text) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue),
          let low = iterator.next().flatMap(hexValue)
        else { return nil }
        bytes.append(high << 4 | low)
      case UInt8(ascii: "+") where plusIsSpace:
        bytes.append(UInt8(ascii: " "))
      default:
        bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
