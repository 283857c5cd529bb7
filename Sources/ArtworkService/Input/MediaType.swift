import ArtworkCore

/// A parsed `Content-Type` value (RFC 9110 §8.3.1): `type/subtype; name=value...`.
struct MediaType: Sendable, Hashable, CustomStringConvertible {
  /// Lowercased, e.g. `image`.
  var type: String
  /// Lowercased, e.g. `png`.
  var subtype: String
  /// Names lowercased, values as sent (quoted values unescaped). `boundary` is case-sensitive.
  var parameters: [String: String]

  /// Parses a header value; nil when it is not `token/token` followed by valid parameters
  /// (a repeated parameter name counts as invalid: which one would win is ambiguous).
  init?(_ header: String) {
    var scanner = HeaderSyntax.Scanner(header)
    scanner.skipWhitespace()
    guard let type = scanner.token(), scanner.take(UInt8(ascii: "/")),
      let subtype = scanner.token(), let parameters = scanner.parameters()
    else { return nil }
    self.type = type.lowercased()
    self.subtype = subtype.lowercased()
    self.parameters = parameters
  }

  /// `type/subtype` without parameters, e.g. `image/png`: what handlers compare against.
  var essence: String { "\(type)/\(subtype)" }

  public var description: String {
    parameters.sorted { $0.key < $1.key }.reduce(essence) { text, parameter in
      let plain =
        !parameter.value.isEmpty && parameter.value.utf8.allSatisfy(HeaderSyntax.isTokenByte)
      let value = plain ? parameter.value : "\"" + parameter.value.replacingQuotes() + "\""
      return text + "; \(parameter.key)=\(value)"
    }
  }
}

extension String {
  /// Escapes `\` and `"` for a quoted string.
  fileprivate func replacingQuotes() -> String {
    var out = ""
    for character in self {
      if character == "\\" || character == "\"" { out.append("\\") }
      out.append(character)
    }
    return out
  }
}
