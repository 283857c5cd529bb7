import ArtworkCore
import Dispatch
import Foundation
import Glibc
import Synchronization

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

/// Standard error without blocking anyone who logs: lines go into a bounded buffer, and one
/// thread of its own writes them out. A logging thread (an event loop among them) only appends
/// to memory under a short lock; when standard error is slow (a full pipe, a stalled terminal),
/// the buffer fills and further lines are dropped and counted (`droppedLines`, in `/metrics`),
/// rather than stalling every connection behind a blocked `write(2)`.
///
/// Two buffers of `capacity` bytes: loggers append to one while the writer writes the other out,
/// then they swap. Neither allocates after start-up. The writer is woken only from its sleep
/// (by the first line after a quiet spell); while lines keep coming it writes what gathered
/// every millisecond, so a busy server pays one `write` per batch, not a wake-up per line.
final class StandardErrorWriter: Sendable {
  static let shared = StandardErrorWriter(descriptor: 2, capacity: 1 << 20)

  private struct State {
    /// Where lines are appended.
    var filling: [UInt8]
    /// The other buffer, empty, while the writer does not hold it.
    var spare: [UInt8]?
    /// The line being built, its storage kept from line to line.
    var line = LogLine()
    var dropped = 0
    /// Whether the writer waits for `wake` (found nothing to write); else it comes back by
    /// itself within a millisecond.
    var writerAsleep = false
  }

  private let descriptor: Int32
  private let capacity: Int
  private let state: Mutex<State>
  private let wake = DispatchSemaphore(value: 0)
  /// Signalled by the writer each time the buffer it took is out.
  private let written = DispatchSemaphore(value: 0)

  /// A writer to `descriptor` (standard error; a pipe in tests) buffering `capacity` bytes.
  init(descriptor: Int32, capacity: Int) {
    self.descriptor = descriptor
    self.capacity = capacity
    var filling = [UInt8]()
    filling.reserveCapacity(capacity)
    var spare = [UInt8]()
    spare.reserveCapacity(capacity)
    state = Mutex(State(filling: filling, spare: spare))
    let thread = Thread { [self] in run() }
    thread.name = "artwork-log"
    thread.start()
  }

  /// Lines dropped because the buffer was full, since the process started.
  var droppedLines: Int { state.withLock { $0.dropped } }

  func write(_ line: String) {
    var line = line
    line.withUTF8 { bytes in append { $0.append(contentsOf: bytes) } }
  }

  /// Builds a line in the writer's own line buffer and appends it: no storage of its own.
  func write(_ build: (inout LogLine) -> Void) {
    let mustWake = state.withLock { state -> Bool in
      state.line.removeAll()
      build(&state.line)
      return Self.append(state.line.bytes, to: &state, capacity: capacity)
    }
    if mustWake { wake.signal() }
  }

  private func append(_ body: (inout [UInt8]) -> Void) {
    let mustWake = state.withLock { state -> Bool in
      var bytes = [UInt8]()
      body(&bytes)
      return Self.append(bytes, to: &state, capacity: capacity)
    }
    if mustWake { wake.signal() }
  }

  /// Appends `line` if it fits; answers whether the writer sleeps and is to be woken.
  private static func append(_ line: [UInt8], to state: inout State, capacity: Int) -> Bool {
    guard state.filling.count + line.count <= capacity else {
      state.dropped += 1
      return false
    }
    state.filling.append(contentsOf: line)
    return wakeWriter(&state)
  }

  /// Marks the writer awake; answers whether it was asleep (the caller signals `wake`).
  private static func wakeWriter(_ state: inout State) -> Bool {
    guard state.writerAsleep else { return false }
    state.writerAsleep = false
    return true
  }

  /// Waits until every line appended so far is written (or `timeout` passed): before the process
  /// exits.
  func flush(timeout: Duration = .seconds(2)) {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      let (idle, mustWake) = state.withLock { state in
        (state.filling.isEmpty && state.spare != nil, Self.wakeWriter(&state))
      }
      if mustWake { wake.signal() }
      if idle { return }
      _ = written.wait(timeout: .now() + .milliseconds(50))
    }
  }

  /// The writer's life: take the filled buffer, give back the empty one, write it out, and come
  /// back a millisecond later for what gathered meanwhile; sleep when nothing did.
  private func run() {
    while true {
      let taken = state.withLock { state -> [UInt8]? in
        guard !state.filling.isEmpty, var spare = state.spare else {
          state.writerAsleep = true
          return nil
        }
        swap(&state.filling, &spare)
        state.spare = nil
        return spare
      }
      guard var full = taken else {
        wake.wait()
        continue
      }
      full.withUnsafeBytes { Self.write($0, to: descriptor) }
      full.removeAll(keepingCapacity: true)
      state.withLock { $0.spare = full }
      written.signal()
      usleep(1000)
    }
  }

  private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
    // Nowhere to report a failure to log; drop the lines.
    _ = try? POSIXIO.writeAll(descriptor, bytes)
  }
}
