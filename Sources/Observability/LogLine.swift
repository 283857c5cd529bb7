import Glibc
import JSON

/// One log line being written: `{"ts":"...","level":"...","msg":"...",...}` and a newline, as
/// bytes. Members are appended in the order given.
public struct LogLine: Sendable {
  private(set) var bytes: [UInt8] = []
  /// The second the last timestamp was written in, and its text up to the milliseconds
  /// (`2026-01-02T03:04:05.`): a line kept from line to line (the standard-error writer's)
  /// formats a date once a second, not once a request.
  private var second = Int.min
  private var secondText: [UInt8] = []

  /// Empties the line, keeping its storage.
  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// The timestamp, level and message.
  mutating func start(level: LogLevel, message: String, time: timespec) {
    bytes.reserveCapacity(256)
    // The timestamp goes straight into the line: no string of its own.
    bytes.append(contentsOf: #"{"ts":""#.utf8)
    if time.tv_sec != second {
      second = time.tv_sec
      secondText.removeAll(keepingCapacity: true)
      Logger.appendSecond(time.tv_sec, to: &secondText)
    }
    bytes.append(contentsOf: secondText)
    Logger.appendMilliseconds(time, to: &bytes)
    bytes.append(UInt8(ascii: "\""))
    name("level")
    string(level.rawValue)
    name("msg")
    string(message)
  }

  /// Closes the object and the line.
  mutating func end() {
    bytes.append(contentsOf: "}\n".utf8)
  }

  /// A member. Names `ts`, `level` and `msg` are written with a leading underscore rather
  /// than overwriting the line's own.
  public mutating func member(_ key: String, _ value: JSONValue) {
    let reserved = key == "ts" || key == "level" || key == "msg"
    name(reserved ? "_" + key : key)
    value.write(into: &bytes)
  }

  /// Members for `fields`, sorted by name (so lines are stable for tests and diffs).
  public mutating func members(_ fields: [String: LogValue]) {
    guard !fields.isEmpty else { return }
    for (key, value) in fields.sorted(by: { $0.key < $1.key }) { member(key, JSONValue(value)) }
  }

  /// An integer member.
  public mutating func member(_ key: String, _ value: Int) {
    name(key)
    Self.appendDecimal(value, to: &bytes)
  }

  /// A number member (null when not finite, which JSON cannot say).
  public mutating func member(_ key: String, _ value: Double) {
    member(key, .double(value))
  }

  /// A string member whose bytes `write` appends (to the line itself: no string is made when
  /// they need no escaping; bytes that are not UTF-8 are replaced, as a string would have them).
  public mutating func member(_ key: String, utf8 write: (inout [UInt8]) -> Void) {
    name(key)
    bytes.append(UInt8(ascii: "\""))
    let start = bytes.count
    write(&bytes)
    let plain = bytes.withUnsafeBufferPointer {
      Self.isPlain(UnsafeBufferPointer(rebasing: $0[start...]))
    }
    if plain {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    let text = String(decoding: bytes[start...], as: UTF8.self)
    bytes.removeSubrange((start - 1)...)
    JSONValue.string(text).write(into: &bytes)
  }

  private mutating func name(_ key: String) {
    bytes.append(UInt8(ascii: ","))
    string(key)
    bytes.append(UInt8(ascii: ":"))
  }

  /// `text` as a JSON string: copied whole between quotes when it is printable ASCII without a
  /// quote or backslash (names, levels, messages: every access line's), else escaped by
  /// `JSONValue`.
  private mutating func string(_ text: String) {
    let copied = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
      guard Self.isPlain(utf8) else { return false }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(contentsOf: utf8)
      bytes.append(UInt8(ascii: "\""))
      return true
    }
    if copied != true { JSONValue.string(text).write(into: &bytes) }
  }

  /// Whether `utf8` needs no escaping in a JSON string (nor for a JavaScript reader of logs).
  private static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in utf8 where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C {
      return false
    }
    return true
  }

  /// `value` in decimal, as `String(value)` would write it.
  static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: the longest Int is 19 digits
    withUnsafeMutableBytes(of: &digits) { buffer in
      var start = buffer.count
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
    }
  }
}
