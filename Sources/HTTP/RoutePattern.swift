import Glibc

/// A route path such as `/v1/images/{name}`: literal segments match exactly, `{name}` segments
/// capture exactly one non-empty decoded segment.
struct RoutePattern: Sendable, Equatable {
  /// One segment of a pattern.
  enum Segment: Sendable, Equatable {
    case literal([UInt8])
    case capture(String)
  }

  /// The pattern's segments, after the leading `/`.
  let segments: [Segment]
  /// The names of its captures, in order.
  let captureNames: [String]
  /// The pattern as written, e.g. `/v1/images/{name}`.
  let text: String
  /// The same segments flattened for matching without a retain: every literal's bytes end to
  /// end, and each segment as where its literal lies in them (`capture` for a capture).
  private let literalBytes: [UInt8]
  private let parts: [Part]
  /// What every path it matches starts with: `/`, then its literal segments up to the first
  /// capture, each followed by `/` (`/v1/images/`). Most routes a path is tried against fail
  /// this one comparison.
  private let prefix: [UInt8]

  private struct Part: Equatable {
    let start: Int
    let end: Int
    let capture: Bool
  }

  /// Parses a pattern. It must start with `/` and capture at most `PathCaptures.capacity`
  /// segments.
  init(_ pattern: String) {
    precondition(pattern.hasPrefix("/"), "route pattern must start with '/': \(pattern)")
    text = pattern
    segments = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
      piece in
      if piece.count > 2, piece.hasPrefix("{"), piece.hasSuffix("}") {
        return .capture(String(piece.dropFirst().dropLast()))
      }
      return .literal(Array(piece.utf8))
    }
    captureNames = segments.compactMap { segment in
      if case .capture(let name) = segment { return name }
      return nil
    }
    precondition(
      captureNames.count <= PathCaptures.capacity,
      "route pattern captures more than \(PathCaptures.capacity) segments: \(pattern)")
    var literalBytes: [UInt8] = []
    var parts: [Part] = []
    for segment in segments {
      switch segment {
      case .literal(let literal):
        let start = literalBytes.count
        parts.append(Part(start: start, end: start + literal.count, capture: false))
        literalBytes += literal
      case .capture:
        parts.append(Part(start: 0, end: 0, capture: true))
      }
    }
    self.literalBytes = literalBytes
    self.parts = parts
    var prefix: [UInt8] = [UInt8(ascii: "/")]
    for (index, segment) in segments.enumerated() {
      guard case .literal(let literal) = segment else { break }
      prefix += literal
      if index + 1 < segments.count { prefix.append(UInt8(ascii: "/")) }
    }
    self.prefix = prefix
  }

  /// Where the captured segments lie in `target` when its path matches, else nil.
  func match(_ target: RequestTarget) -> PathCaptures? {
    // A path without escapes (nearly all) is compared as raw bytes; one with escapes segment
    // by segment, decoded.
    guard let found = target.withUnescapedPath({ matchRaw($0) }) else {
      return matchDecoded(target)
    }
    return found
  }

  /// `match` for an unescaped path, given its bytes (`/a/b`): no copy, no retain.
  private func matchRaw(_ path: UnsafeBufferPointer<UInt8>) -> PathCaptures? {
    guard path.count >= prefix.count,
      prefix.withUnsafeBufferPointer({ memcmp(path.baseAddress!, $0.baseAddress!, $0.count) == 0 })
    else { return nil }
    let slash = UInt8(ascii: "/")
    var found = (0..<0, 0..<0, 0..<0, 0..<0)
    var captured = 0
    let matched = literalBytes.withUnsafeBufferPointer { literals in
      parts.withUnsafeBufferPointer { parts -> Bool in
        var start = 1
        for part in parts {
          guard start <= path.count else { return false }
          var stop = start
          while stop < path.count, path[stop] != slash { stop += 1 }
          if part.capture {
            guard stop > start else { return false }
            switch captured {
            case 0: found.0 = start..<stop
            case 1: found.1 = start..<stop
            case 2: found.2 = start..<stop
            default: found.3 = start..<stop
            }
            captured += 1
          } else {
            guard stop - start == part.end - part.start else { return false }
            var index = 0
            while index < stop - start {
              guard path[start + index] == literals[part.start + index] else { return false }
              index += 1
            }
          }
          start = stop + 1
        }
        // Every segment of the path was matched: nothing follows the last one.
        return start > path.count
      }
    }
    guard matched else { return nil }
    return PathCaptures(names: captureNames, ranges: found, count: captured)
  }

  /// `match` for a path with escapes: each segment decoded before it is compared.
  private func matchDecoded(_ target: RequestTarget) -> PathCaptures? {
    var captures = PathCaptures(names: captureNames)
    var iterator = target.segments.makeIterator()
    for segment in segments {
      guard let range = iterator.next() else { return nil }
      switch segment {
      case .literal(let literal):
        guard target.segment(range, equals: literal) else { return nil }
      case .capture:
        guard !range.isEmpty else { return nil }
        captures.append(range)
      }
    }
    guard iterator.next() == nil else { return nil }
    return captures
  }
}

/// The segments a route pattern captured: ranges of the request-target's bytes, held inline
/// (no storage of their own), decoded only when asked for.
struct PathCaptures: Sendable {
  /// The most captures a pattern may have.
  static let capacity = 4

  /// The pattern's capture names (its own array, shared).
  private(set) var names: [String] = []
  private var ranges: (Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (
    0..<0, 0..<0, 0..<0, 0..<0
  )
  private var count = 0

  init() {}

  init(names: [String]) {
    self.names = names
  }

  fileprivate init(
    names: [String], ranges: (Range<Int>, Range<Int>, Range<Int>, Range<Int>), count: Int
  ) {
    self.names = names
    self.ranges = ranges
    self.count = count
  }

  fileprivate mutating func append(_ range: Range<Int>) {
    switch count {
    case 0: ranges.0 = range
    case 1: ranges.1 = range
    case 2: ranges.2 = range
    default: ranges.3 = range
    }
    count += 1
  }

  /// Where the segment captured as `name` lies, when the pattern has that capture.
  func range(_ name: String) -> Range<Int>? {
    guard let index = names.firstIndex(of: name), index < count else { return nil }
    return range(at: index)
  }

  private func range(at index: Int) -> Range<Int> {
    switch index {
    case 0: ranges.0
    case 1: ranges.1
    case 2: ranges.2
    default: ranges.3
    }
  }
}
