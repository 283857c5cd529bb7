/// A route path such as `/v1/images/{name}`: literal segments match exactly, `{name}` segments
/// capture exactly one non-empty decoded segment.
struct RoutePattern: Sendable, Equatable {
  /// One segment of a pattern.
  enum Segment: Sendable, Equatable {
    case literal(String)
    case capture(String)
  }

  /// The pattern's segments, after the leading `/`.
  let segments: [Segment]
  /// The pattern as written, e.g. `/v1/images/{name}`.
  let text: String

  /// Parses a pattern. It must start with `/`.
  init(_ pattern: String) {
    precondition(pattern.hasPrefix("/"), "route pattern must start with '/': \(pattern)")
    text = pattern
    segments = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
      piece in
      if piece.count > 2, piece.hasPrefix("{"), piece.hasSuffix("}") {
        return .capture(String(piece.dropFirst().dropLast()))
      }
      return .literal(String(piece))
    }
  }

  /// The captured values when `path` (decoded segments) matches, else nil.
  func match(_ path: [String]) -> [String: String]? {
    guard path.count == segments.count else { return nil }
    var captures: [String: String] = [:]
    for (segment, value) in zip(segments, path) {
      switch segment {
      case .literal(let literal):
        guard literal == value else { return nil }
      case .capture(let name):
        guard !value.isEmpty else { return nil }
        captures[name] = value
      }
    }
    return captures
  }
}
