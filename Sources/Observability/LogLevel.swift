/// How important a log line is. Lines below the configured level are dropped.
public enum LogLevel: String, Sendable, Hashable, CaseIterable, Comparable {
  case debug, info, warn, error

  /// Accepts the names as written in `ARTWORK_LOG_LEVEL` (case-insensitive).
  public init?(name: String) {
    self.init(rawValue: name.lowercased())
  }

  private var rank: Int {
    switch self {
    case .debug: 0
    case .info: 1
    case .warn: 2
    case .error: 3
    }
  }

  /// Levels order by severity: debug < info < warn < error.
  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}
