extension Logger {
  /// A minimal JSON writer for log lines (Foundation's encoder is too slow and too general here).
  enum JSONWriter {
    /// Appends `text` as a JSON string literal: quotes, backslashes and control characters are
    /// escaped; everything else (valid Unicode, as Swift strings are) is written as UTF-8.
    static func appendString(_ text: String, to out: inout String) {
      out.unicodeScalars.append("\"")
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        // U+2028/2029 are valid JSON but break JavaScript readers of the log; escape them too.
        case "\u{2028}", "\u{2029}", "\u{7F}":
          out += "\\u" + hex4(scalar.value)
        default:
          if scalar.value < 0x20 {
            out += "\\u" + hex4(scalar.value)
          } else {
            out.unicodeScalars.append(scalar)
          }
        }
      }
      out.unicodeScalars.append("\"")
    }

    /// Appends a log value: numbers as JSON numbers (non-finite doubles as null), booleans bare.
    static func append(_ value: LogValue, to out: inout String) {
      switch value {
      case .string(let text): appendString(text, to: &out)
      case .int(let number): out += String(number)
      case .double(let number): out += number.isFinite ? "\(number)" : "null"
      case .bool(let flag): out += flag ? "true" : "false"
      }
    }

    private static func hex4(_ value: UInt32) -> String {
      let digits = String(value, radix: 16)
      return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
  }
}
