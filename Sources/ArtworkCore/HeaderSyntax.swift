/// Pieces of HTTP header grammar (RFC 9110 §5.6) shared by `MediaType` and multipart parsing:
/// tokens, quoted strings and `; name=value` parameter lists.
public enum HeaderSyntax {
  /// RFC 9110 `tchar`: the characters of a token.
  public static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// `text` without leading and trailing spaces, tabs, CR and LF (header values, environment
  /// values).
  public static func trimmed(_ text: String) -> String {
    // NOTE: "\r\n" is one Character (a grapheme cluster), so it is listed on its own.
    let isSpace: (Character) -> Bool = {
      $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n"
    }
    guard let first = text.firstIndex(where: { !isSpace($0) }),
      let last = text.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(text[first...last])
  }

  /// One `Name: value` line of a response head: the name lowercased, the value trimmed; nil
  /// for a line without a colon.
  public static func field(_ line: String) -> (name: String, value: String)? {
    guard let colon = line.firstIndex(of: ":") else { return nil }
    return (line[..<colon].lowercased(), trimmed(String(line[line.index(after: colon)...])))
  }

  /// Reads header text one byte at a time; every method leaves `index` after what it read.
  public struct Scanner {
    let bytes: [UInt8]
    var index = 0

    /// A scanner at the start of `text`.
    public init(_ text: some StringProtocol) { bytes = Array(text.utf8) }

    var atEnd: Bool { index >= bytes.count }

    /// Skips spaces and tabs (RFC 9110 OWS).
    public mutating func skipWhitespace() {
      while index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
    }

    /// Consumes `byte` if it is next.
    public mutating func take(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    /// A non-empty token, or nil (nothing consumed).
    public mutating func token() -> String? {
      let start = index
      while index < bytes.count && HeaderSyntax.isTokenByte(bytes[index]) { index += 1 }
      guard index > start else { return nil }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A quoted string with `\` escapes removed, or nil when unterminated or invalid.
    mutating func quotedString() -> String? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      var value: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          return String(validating: value, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard index < bytes.count else { return nil }
          value.append(bytes[index])
          index += 1
        case 0x00...0x08, 0x0A...0x1F, 0x7F:
          return nil  // control characters (tab is allowed)
        default:
          value.append(byte)
        }
      }
      return nil
    }

    /// `*( OWS ";" OWS [ name "=" ( token / quoted-string ) ] )` up to the end: names
    /// lowercased, values as written. Nil on a syntax error or a repeated name.
    public mutating func parameters() -> [String: String]? {
      var result: [String: String] = [:]
      while true {
        skipWhitespace()
        if atEnd { return result }
        guard take(UInt8(ascii: ";")) else { return nil }
        skipWhitespace()
        if atEnd { return result }
        if bytes[index] == UInt8(ascii: ";") { continue }
        guard let name = token()?.lowercased(), take(UInt8(ascii: "=")) else { return nil }
        let value: String?
        if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
          value = quotedString()
        } else {
          value = token()
        }
        guard let value, result[name] == nil else { return nil }
        result[name] = value
      }
    }
  }
}
