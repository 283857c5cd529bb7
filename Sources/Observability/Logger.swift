import Glibc

/// Structured logging: one JSON object per line,
/// `{"ts":"2026-01-02T03:04:05.678Z","level":"info","msg":"...",...fields}`.
///
/// A value type that is cheap to copy and safe to share: the sink is the only shared part. The
/// standard-error sink never blocks the caller (`StandardErrorWriter`: a bounded buffer and a
/// thread of its own).
public struct Logger: Sendable {
  /// Lines below this level are dropped before they are formatted.
  var level: LogLevel
  /// Fields added to every line of this logger (a request id, a component name).
  var metadata: [String: LogValue]
  /// Where lines go: a closure given complete lines, or standard error (nil), where a line
  /// written member by member (`log(_:_:writing:)`) needs no string.
  private let sink: (@Sendable (String) -> Void)?

  /// A logger writing to `sink`, which receives complete lines ending in "\n".
  /// The default sink is standard error.
  public init(
    level: LogLevel = .info, metadata: [String: LogValue] = [:],
    sink: (@Sendable (String) -> Void)? = nil
  ) {
    self.level = level
    self.metadata = metadata
    self.sink = sink
  }

  /// Writes one line when `level` is at or above the logger's level. Fields named `ts`, `level`
  /// or `msg` are renamed with a leading underscore rather than silently overwriting those.
  public func log(_ level: LogLevel, _ message: String, _ fields: [String: LogValue] = [:]) {
    guard level >= self.level else { return }
    let merged = metadata.isEmpty ? fields : metadata.merging(fields) { _, new in new }
    write(level, message) { line in line.members(merged) }
  }

  /// Writes one line whose fields `fields` writes itself, member by member, in name order,
  /// after the logger's metadata: for the line written on every request, which builds no
  /// dictionary this way and, to standard error, no string either (it is formatted in the
  /// writer's own buffer).
  public func log(_ level: LogLevel, _ message: String, writing fields: (inout LogLine) -> Void) {
    guard level >= self.level else { return }
    let metadata = metadata
    write(level, message) { line in
      line.members(metadata)
      fields(&line)
    }
  }

  /// Writes one line: the timestamp, `level`, `message`, then what `members` writes. To
  /// standard error it is built in the writer's own buffer; a sink is given it as a string.
  private func write(
    _ level: LogLevel, _ message: String, members: (inout LogLine) -> Void
  ) {
    let time = Self.now()
    func build(_ line: inout LogLine) {
      line.start(level: level, message: message, time: time)
      members(&line)
      line.end()
    }
    guard let sink else {
      StandardErrorWriter.shared.write(build)
      return
    }
    var line = LogLine()
    build(&line)
    sink(String(decoding: line.bytes, as: UTF8.self))
  }

  /// Logs at debug: detail for whoever investigates.
  public func debug(_ message: String, _ fields: [String: LogValue] = [:]) {
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
  public func with(_ fields: [String: LogValue]) -> Logger {
    var copy = self
    copy.metadata.merge(fields) { _, new in new }
    return copy
  }

  /// The sink that writes lines to the process's standard error (the default).
  public static let standardError: @Sendable (String) -> Void = { line in
    StandardErrorWriter.shared.write(line)
  }

  /// Lines to standard error dropped because its buffer was full (standard error too slow).
  public static var droppedLines: Int { StandardErrorWriter.shared.droppedLines }

  /// Waits until what was logged to standard error is written out (before the process exits).
  public static func flush() {
    StandardErrorWriter.shared.flush()
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
