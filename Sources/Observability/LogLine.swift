import Glibc
import JSON

/// One log line being written: `{"ts":"...","level":"...","msg":"...",...}` and a newline, as
/// bytes. Members are appended in the order given.
public struct LogLine: Sendable {
  private(set) var bytes: [UInt8] = []

  /// Empties the line, keeping its storage.
  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// The timestamp, level and message.
  mutating func start(level: LogLevel, message: String, time: timespec) {
    bytes.reserveCapacity(256)
    // The timestamp goes straight into the line: no string of its own.
    bytes.append(contentsOf: #"{"ts":""#.utf8)
    Logger.appendTimestamp(time, to: &bytes)
    bytes.append(UInt8(ascii: "\""))
    name("level")
    JSONValue.string(level.rawValue).write(into: &bytes)
    name("msg")
    JSONValue.string(message).write(into: &bytes)
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
    for (key, value) in fields.sorted(by: { $0.key < $1.key }) { member(key, JSONValue(value)) }
  }

  /// An integer member.
  public mutating func member(_ key: String, _ value: Int) {
    member(key, .int(value))
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
    let plain = bytes[start...].allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
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
    JSONValue.string(key).write(into: &bytes)
    bytes.append(UInt8(ascii: ":"))
  }
}
