/// Client-supplied text quoted in a problem's detail: cut to a short prefix, control characters
/// escaped, so an answer never echoes a megabyte back or breaks a log line.
public enum ClientText {
  /// The longest prefix quoted, in characters.
  static let limit = 64

  /// `text` in double quotes, at most `limit` characters of it, with `...` when cut.
  public static func quoted(_ text: some StringProtocol) -> String {
    "\"" + clipped(text) + "\""
  }

  /// At most `limit` characters of `text`, with `...` when cut, control characters and double
  /// quotes escaped.
  public static func clipped(_ text: some StringProtocol) -> String {
    var out = ""
    var count = 0
    for scalar in text.unicodeScalars {
      guard count < limit else {
        out += "..."
        break
      }
      count += 1
      switch scalar.value {
      case 0..<0x20, 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
      case 0x22: out += "\\\""
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
