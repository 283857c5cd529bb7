import JSON

/// Reading fields of a webhook body: members by name (exactly, else ignoring case, for user
/// templates), and values as the types a reader wants, whatever JSON type the application
/// wrote them as (`"2010"` and `2010` are both a year).
extension JSONValue {
  /// The value of member `key` of this object: the exact key, else one that differs only in
  /// case; nil when this is not an object or has no such member.
  subscript(_ key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    if let exact = members.first(where: { $0.0 == key }) { return exact.1 }
    let lowered = key.lowercased()
    return members.first { $0.0.lowercased() == lowered }?.1
  }

  /// A string, or a number's text; nil for anything else, and for an empty string.
  var scalar: String? {
    switch self {
    case .string(let value): value.isEmpty ? nil : value
    case .number(let value): value
    case .int(let value): String(value)
    default: nil
    }
  }

  /// A string that is not empty; nil for anything else (an event's name is a string).
  var nonEmptyString: String? {
    if case .string(let value) = self, !value.isEmpty { return value }
    return nil
  }

  /// A whole number from -999,999,999 to 999,999,999, written as a number or as a string of
  /// digits; nil for anything else.
  var integer: Int? {
    switch self {
    case .int(let value): return abs(value) < 1_000_000_000 ? value : nil
    case .number(let text), .string(let text):
      let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
      guard (1...9).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber })
      else { return nil }
      return Int(text)
    default: return nil
    }
  }

  /// The elements of an array; empty for anything else.
  var elements: [JSONValue] {
    if case .array(let items) = self { return items }
    return []
  }

  /// Whether this is an object.
  var isObject: Bool {
    if case .object = self { return true }
    return false
  }
}
