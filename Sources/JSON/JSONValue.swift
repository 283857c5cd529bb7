import ArtworkCore

/// A JSON value that keeps the order of object keys, so that answers read in the documented order
/// (`image_url`, `image_shape`, `image_thumbhash` first: they merge straight into an activity).
public enum JSONValue: Sendable, Equatable {
  case string(String)
  case int(Int)
  case double(Double)
  /// A number of a parsed document, exactly as written (`1e400`, a 401-digit integer, `0.10`):
  /// passed through at any magnitude and precision; read as a value only where the service needs
  /// one (`size`), and range-checked there.
  case number(String)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.bool(let a), .bool(let b)): a == b
    case (.null, .null): true
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
    default: false
    }
  }

  /// Compact UTF-8 JSON text.
  public var bytes: [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(256)
    write(into: &out)
    return out
  }

  /// The compact JSON text.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends the compact text of this value to `out`.
  public func write(into out: inout [UInt8]) {
    switch self {
    case .string(let s): JSONValue.writeString(s, into: &out)
    case .int(let i): out.append(contentsOf: String(i).utf8)
    case .double(let d):
      // NOTE: JSON has no NaN or infinity; none of our values can be, but never emit invalid JSON.
      out.append(contentsOf: (d.isFinite ? d.description : "null").utf8)
    case .number(let text): out.append(contentsOf: text.utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .null: out.append(contentsOf: "null".utf8)
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (i, item) in items.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        item.write(into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSONValue.writeString(key, into: &out)
        out.append(UInt8(ascii: ":"))
        value.write(into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// Writes `s` as a JSON string literal: quotes, backslashes and control characters escaped,
  /// and U+2028/U+2029 too (valid JSON, but they end lines for JavaScript readers of logs).
  private static func writeString(_ s: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var s = s
    s.withUTF8 { bytes in
      // Most strings (URLs, hashes, names) need no escaping: copy them whole.
      var plain = true
      for byte in bytes
      where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2 {
        plain = false
        break
      }
      if plain {
        out.append(contentsOf: bytes)
      } else {
        writeEscaped(Array(bytes), into: &out)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  private static func writeEscaped(_ bytes: [UInt8], into out: inout [UInt8]) {
    func unicodeEscape(_ value: Int) {
      out.append(contentsOf: "\\u".utf8)
      out.append(contentsOf: lowercaseHex([UInt8(value >> 8), UInt8(value & 0xFF)]).utf8)
    }
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x22: out.append(contentsOf: [0x5C, 0x22])
      case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0..<0x20, 0x7F: unicodeEscape(Int(byte))
      case 0xE2
      where index + 2 < bytes.count && bytes[index + 1] == 0x80
        && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
        unicodeEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029)
        index += 2
      default: out.append(byte)
      }
      index += 1
    }
  }
}
