import ArtworkCore

/// The request-target of a request line: its bytes as sent, and where its path, segments and
/// query lie in them. Decoded text is made only when it is asked for, so routing a request and
/// answering it from memory makes no string.
///
/// The path is split into segments on the raw `/` before decoding, so an encoded slash (`%2F`)
/// stays inside one segment and never changes which route matches.
struct RequestTarget: Sendable {
  /// The origin-form target: the request's own bytes (`/a/b?x=1`), or for an absolute-form
  /// target (`http://host/a?x=1`) its path and query.
  let bytes: [UInt8]
  /// Where the path ends (the `?` or the end).
  private let pathEnd: Int
  /// Whether the path holds a percent escape.
  private let pathIsEscaped: Bool

  /// Parses a target. Nil when it is not a path, has a malformed escape, or decodes to NUL or
  /// invalid UTF-8 in the path; or, in absolute form, when its scheme is not http or https, it
  /// has user info (`user:pass@`), or no host.
  init?(_ target: [UInt8]) {
    let slash = UInt8(ascii: "/")
    var bytes = target
    if bytes.first != slash {
      // Absolute form (RFC 9112 3.2.2): `http(s)://authority` then the path, whose authority
      // the server may ignore, but only once it is one a client of this server could mean.
      guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
        bytes[colon...].starts(with: "://".utf8)
      else { return nil }
      let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
      guard scheme == "http" || scheme == "https" else { return nil }
      let authority = colon + 3
      let authorityEnd =
        bytes[authority...].firstIndex { $0 == slash || $0 == UInt8(ascii: "?") } ?? bytes.count
      let host = bytes[authority..<authorityEnd]
      guard !host.isEmpty, !host.contains(UInt8(ascii: "@")) else { return nil }
      if authorityEnd == bytes.count {
        bytes = [slash]
      } else if bytes[authorityEnd] == slash {
        bytes = Array(bytes[authorityEnd...])
      } else {
        bytes = [slash] + bytes[authorityEnd...]
      }
    }
    self.bytes = bytes
    // One pass over the path: where it ends, whether it has an escape, whether it has a NUL.
    var pathEnd = bytes.count
    var escaped = false
    var hasNUL = false
    bytes.withUnsafeBufferPointer { path in
      for index in path.indices {
        switch path[index] {
        case UInt8(ascii: "?"):
          pathEnd = index
          return
        case UInt8(ascii: "%"): escaped = true
        case 0: hasNUL = true
        default: break
        }
      }
    }
    self.pathEnd = pathEnd
    pathIsEscaped = escaped
    // A raw NUL makes its segment unsound, escaped or not; without an escape, nothing else can.
    guard !hasNUL else { return nil }
    if escaped {
      for segment in segments where !Self.isSound(bytes[segment]) { return nil }
    }
  }

  /// Parses a target given as text.
  init?(_ target: String) {
    self.init(Array(target.utf8))
  }

  /// Whether a raw segment decodes, to UTF-8 without NUL.
  private static func isSound(_ raw: ArraySlice<UInt8>) -> Bool {
    guard raw.contains(UInt8(ascii: "%")) else { return !raw.contains(0) }
    guard let decoded = decode(raw, plusIsSpace: false) else { return false }
    return !decoded.contains(0) && String(validating: decoded, as: UTF8.self) != nil
  }

  // MARK: - Segments

  /// The raw path segments as ranges of `bytes` (the empty segment before the leading `/` is
  /// not included; `/` is one empty segment).
  var segments: Segments { Segments(bytes: bytes, end: pathEnd) }

  /// The path's segments, split on the raw `/`, without storage of their own.
  struct Segments: Sequence {
    fileprivate let bytes: [UInt8]
    fileprivate let end: Int

    func makeIterator() -> Iterator { Iterator(bytes: bytes, end: end, start: 1) }

    struct Iterator: IteratorProtocol {
      fileprivate let bytes: [UInt8]
      fileprivate let end: Int
      fileprivate var start: Int

      mutating func next() -> Range<Int>? {
        guard start <= end else { return nil }
        var stop = start
        while stop < end, bytes[stop] != UInt8(ascii: "/") { stop += 1 }
        defer { start = stop + 1 }
        return start..<stop
      }
    }
  }

  /// Calls `body` with the raw bytes of the path (up to the `?`) when the path holds no escape,
  /// so that each segment is its own bytes; nil when it holds one.
  func withUnescapedPath<Result>(
    _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    guard !pathIsEscaped else { return nil }
    return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<pathEnd])) }
  }

  /// Whether the segment at `range` decodes to exactly `literal`.
  func segment(_ range: Range<Int>, equals literal: [UInt8]) -> Bool {
    segmentBytes(range).elementsEqual(literal)
  }

  /// The decoded bytes of the segment at `range`: its own bytes when it holds no escape (every
  /// segment decodes: `init` checked).
  func segmentBytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
    let raw = bytes[range]
    guard pathIsEscaped, raw.contains(UInt8(ascii: "%")) else { return raw }
    return Self.decode(raw, plusIsSpace: false)?[...] ?? raw
  }

  /// The decoded text of the segment at `range`.
  func segmentText(_ range: Range<Int>) -> String {
    String(decoding: segmentBytes(range), as: UTF8.self)
  }

  /// The decoded segments as text.
  var segmentTexts: [String] { segments.map(segmentText) }

  // MARK: - Text

  /// The path exactly as sent, without the query.
  var rawPath: String { String(decoding: bytes[..<pathEnd], as: UTF8.self) }

  /// The decoded path.
  var path: String {
    guard pathIsEscaped else { return rawPath }
    return "/" + segmentTexts.joined(separator: "/")
  }

  /// Writes the decoded path's bytes into `out` (for a log line: no string is made).
  func appendPath(to out: inout [UInt8]) {
    guard pathIsEscaped else {
      out.append(contentsOf: bytes[..<pathEnd])
      return
    }
    for segment in segments {
      out.append(UInt8(ascii: "/"))
      out.append(contentsOf: segmentBytes(segment))
    }
  }

  /// Decoded query parameters; the last value of a repeated name wins.
  var query: [String: String] {
    guard pathEnd < bytes.count else { return [:] }
    return Self.parseQuery(bytes[(pathEnd + 1)...])
  }

  /// Decodes `name=value&...`; pairs that do not decode are skipped.
  static func parseQuery(_ query: ArraySlice<UInt8>) -> [String: String] {
    var result: [String: String] = [:]
    for pair in query.split(separator: UInt8(ascii: "&")) {
      let parts = pair.split(
        separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = text(parts[0]), !name.isEmpty,
        let value = text(parts.count > 1 ? parts[1] : [])
      else { continue }
      result[name] = value
    }
    return result
  }

  /// A query name or value decoded to text; nil on a malformed escape or decoded bytes that
  /// are not UTF-8 (bytes sent as they are, unescaped, are read as the path's are).
  private static func text(_ raw: ArraySlice<UInt8>) -> String? {
    guard raw.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
      return String(decoding: raw, as: UTF8.self)
    }
    return decode(raw, plusIsSpace: true).flatMap { String(validating: $0, as: UTF8.self) }
  }

  /// Percent-decodes `raw`; nil on a malformed escape.
  static func decode(_ raw: ArraySlice<UInt8>, plusIsSpace: Bool) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(raw.count)
    var iterator = raw.makeIterator()
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
    return bytes
  }
}
