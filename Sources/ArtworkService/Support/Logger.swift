import ArtworkCore
import Glibc
import Synchronization

/// Structured logging: one JSON object per line,
/// `{"ts":"2026-01-02T03:04:05.678Z","level":"info","msg":"...",...fields}`.
///
/// A value type that is cheap to copy and safe to share: the sink is the only shared part, and
/// the standard-error sink writes each line with one locked write.
public struct Logger: Sendable {
  /// Lines below this level are dropped before they are formatted.
  var level: LogLevel
  /// Fields added to every line of this logger (a request id, a component name).
  var metadata: [String: LogValue]
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
  func log(_ level: LogLevel, _ message: String, _ fields: [String: LogValue] = [:]) {
    guard level >= self.level else { return }
    let merged = metadata.isEmpty ? fields : metadata.merging(fields) { _, new in new }
    sink(Self.line(level: level, message: message, fields: merged, time: Self.now()))
  }

  func debug(_ message: String, _ fields: [String: LogValue] = [:]) {
    log(.debug, message, fields)
  }

  /// Logs at info: normal events, client errors.
  public func info(_ message: String, _ fields: [String: LogValue] = [:]) {
    log(.info, message, fields)
  }

  /// Logs at warn: something an operator should look at.
  public func warn(_ message: String, _ fields: [String: LogValue] = [:]) {
    log(.warn, message, fields)
  }

  /// Logs at error: a failure of the service itself.
  public func error(_ message: String, _ fields: [String: LogValue] = [:]) {
    log(.error, message, fields)
  }

  /// A copy of this logger that adds `fields` to every line.
  func with(_ fields: [String: LogValue]) -> Logger {
    var copy = self
    copy.metadata.merge(fields) { _, new in new }
    return copy
  }

  /// The sink that writes lines to the process's standard error.
  public static let standardError: @Sendable (String) -> Void = { line in
    StandardErrorWriter.shared.write(line)
  }

  /// Formats one line (fields sorted by name, so lines are stable for tests and diffs).
  /// Written straight into bytes, member by member: this runs for every access-log line.
  static func line(
    level: LogLevel, message: String, fields: [String: LogValue], time: timespec
  ) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    func member(_ key: String, _ value: JSONValue) {
      out.append(out.isEmpty ? UInt8(ascii: "{") : UInt8(ascii: ","))
      JSONValue.string(key).write(into: &out)
      out.append(UInt8(ascii: ":"))
      value.write(into: &out)
    }
    // The timestamp goes straight into the line: no string of its own.
    out.append(contentsOf: #"{"ts":""#.utf8)
    appendTimestamp(time, to: &out)
    out.append(UInt8(ascii: "\""))
    member("level", .string(level.rawValue))
    member("msg", .string(message))
    for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
      let reserved = key == "ts" || key == "level" || key == "msg"
      member(reserved ? "_" + key : key, JSONValue(value))
    }
    out.append(contentsOf: "}\n".utf8)
    return String(decoding: out, as: UTF8.self)
  }

  static func now() -> timespec {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return time
  }

  /// ISO 8601 UTC with milliseconds, e.g. `2026-11-29T13:00:04.123Z`.
  static func timestamp(_ time: timespec) -> String {
    var text: [UInt8] = []
    appendTimestamp(time, to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// `timestamp(time)`'s 24 bytes, appended to `out`: this runs for every access-log line.
  static func appendTimestamp(_ time: timespec, to out: inout [UInt8]) {
    var seconds = time.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func put(_ value: Int32, _ width: Int) {
      var divisor: Int32 = 1
      for _ in 1..<width { divisor *= 10 }
      while divisor > 0 {
        out.append(UInt8(ascii: "0") + UInt8((value / divisor) % 10))
        divisor /= 10
      }
    }
    put(parts.tm_year + 1900, 4)
    out.append(UInt8(ascii: "-"))
    put(parts.tm_mon + 1, 2)
    out.append(UInt8(ascii: "-"))
    put(parts.tm_mday, 2)
    out.append(UInt8(ascii: "T"))
    put(parts.tm_hour, 2)
    out.append(UInt8(ascii: ":"))
    put(parts.tm_min, 2)
    out.append(UInt8(ascii: ":"))
    put(parts.tm_sec, 2)
    out.append(UInt8(ascii: "."))
    put(Int32(time.tv_nsec / 1_000_000), 3)
    out.append(UInt8(ascii: "Z"))
  }
}

/// Serialises writes to standard error so that lines from different threads never interleave.
/// Each line is one `write(2)` of its bytes (retried on a partial write or EINTR).
private final class StandardErrorWriter: Sendable {
  static let shared = StandardErrorWriter()
  private let lock = Mutex(())

  func write(_ line: String) {
    var line = line
    line.withUTF8 { bytes in
      lock.withLock { _ in
        var offset = 0
        while offset < bytes.count {
          let written = Glibc.write(2, bytes.baseAddress! + offset, bytes.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            return  // Nowhere to report a failure to log; drop the line.
          }
          offset += written
        }
      }
    }
  }
}
