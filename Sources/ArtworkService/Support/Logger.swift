import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Structured logging: one JSON object per line,
/// `{"ts":"2026-01-02T03:04:05.678Z","level":"info","msg":"...",...fields}`.
///
/// A value type that is cheap to copy and safe to share: the sink is the only shared part, and
/// the standard-error sink writes each line with one locked write.
public struct Logger: Sendable {
  /// Lines below this level are dropped before they are formatted.
  public var level: LogLevel
  /// Fields added to every line of this logger (a request id, a component name).
  public var metadata: [String: LogValue]
  private let sink: @Sendable (String) -> Void

  /// A logger writing to `sink`, which receives complete lines ending in "\n".
  /// The default sink is standard error.
  public init(
    level: LogLevel = .info, metadata: [String: LogValue] = [:],
    sink: @escaping @Sendable (String) -> Void = Logger.standardError
  ) {
    self.level = level
    self.metadata = metadata
    self.sink = sink
  }

  /// Writes one line when `level` is at or above the logger's level. Fields named `ts`, `level`
  /// or `msg` are renamed with a leading underscore rather than silently overwriting those.
  public func log(_ level: LogLevel, _ message: String, _ fields: [String: LogValue] = [:]) {
    guard level >= self.level else { return }
    let merged = metadata.merging(fields) { _, new in new }
    sink(Self.line(level: level, message: message, fields: merged, time: Self.now()))
  }

  public func debug(_ message: String, _ fields: [String: LogValue] = [:]) {
    log(.debug, message, fields)
  }

  public func info(_ message: String, _ fields: [String: LogValue] = [:]) {
    log(.info, message, fields)
  }

  public func warn(_ message: String, _ fields: [String: LogValue] = [:]) {
    log(.warn, message, fields)
  }

  public func error(_ message: String, _ fields: [String: LogValue] = [:]) {
    log(.error, message, fields)
  }

  /// A copy of this logger that adds `fields` to every line.
  public func with(_ fields: [String: LogValue]) -> Logger {
    var copy = self
    copy.metadata.merge(fields) { _, new in new }
    return copy
  }

  /// The sink that writes lines to the process's standard error.
  public static let standardError: @Sendable (String) -> Void = { line in
    StandardErrorWriter.shared.write(line)
  }

  /// Formats one line (fields sorted by name, so lines are stable for tests and diffs).
  static func line(
    level: LogLevel, message: String, fields: [String: LogValue], time: timespec
  ) -> String {
    var members: [(String, JSONValue)] = [
      ("ts", .string(timestamp(time))), ("level", .string(level.rawValue)),
      ("msg", .string(message)),
    ]
    for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
      let reserved = key == "ts" || key == "level" || key == "msg"
      members.append((reserved ? "_" + key : key, JSONValue(value)))
    }
    return JSONValue.object(members).text + "\n"
  }

  static func now() -> timespec {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return time
  }

  /// ISO 8601 UTC with milliseconds, e.g. `2026-11-29T13:00:04.123Z`.
  static func timestamp(_ time: timespec) -> String {
    var seconds = time.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let millis = Int32(time.tv_nsec / 1_000_000)
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
      + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
      + ".\(pad(millis, 3))Z"
  }
}

/// Serialises writes to standard error so that lines from different threads never interleave.
private final class StandardErrorWriter: Sendable {
  static let shared = StandardErrorWriter()
  private let handle = Mutex(FileHandle.standardError)

  func write(_ line: String) {
    let data = Data(line.utf8)
    handle.withLock { $0.write(data) }
  }
}
