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
  }

  /// Where the captured segments lie in `target` when its path matches, else nil.
  func match(_ target: RequestTarget) -> PathCaptures? {
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
