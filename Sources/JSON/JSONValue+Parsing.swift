import ArtworkCore

/// Why a text is not the JSON it should be, with the byte offset where reading stopped.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, in words ("expected ':' after a key").
  public var reason: String
  /// The byte offset where reading stopped.
  public var offset: Int

  /// The reason and the offset, as a sentence's end.
  public var description: String { "\(reason) at byte \(offset)" }
}

extension JSONValue {
  /// The deepest nesting of arrays and objects accepted: request bodies are flat, and a bound
  /// keeps a hostile `[[[[...` from exhausting the stack.
  public static var maxDepth: Int { 64 }

  /// Parses RFC 8259 JSON text (UTF-8; one value, surrounded by optional whitespace).
  ///
  /// Strict: no comments, trailing commas, single quotes, leading zeros, NaN or control
  /// characters in strings; escapes must be valid, surrogates paired. A repeated key in one
  /// object is refused: which value would win is ambiguous. Keys are compared by code points,
  /// as JSON defines them (`"é"` and `"e\u0301"` are two keys, though Swift's `String` calls
  /// them equal). Numbers are kept as written (`.number`), at any magnitude and precision.
  public init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
    var reader = JSONReader(bytes: bytes)
    reader.skipWhitespace()
    self = try reader.value(depth: 0)
    reader.skipWhitespace()
    guard reader.atEnd else { throw reader.error("unexpected text after the JSON value") }
  }

  /// The members of an object as a dictionary, or nil when this is not an object.
  public var objectMembers: [String: JSONValue]? {
    guard case .object(let members) = self else { return nil }
    return Dictionary(members, uniquingKeysWith: { _, last in last })
  }
}

/// One member of an object in JSON text, with where it is: for edits that leave every other
/// byte as sent (key order, spacing, numbers exactly as written).
public struct JSONMemberSpan: Sendable, Equatable {
  /// The key, unescaped.
  public var key: String
  /// The value, parsed.
  public var value: JSONValue
  /// From the key's opening quote to the end of the value.
  public var member: Range<Int>
  /// The key's text, quotes included, as written (escapes and all).
  public var keyRange: Range<Int>
  /// The value's text.
  public var valueRange: Range<Int>

  /// The same member `distance` bytes later in another text.
  public func moved(by distance: Int) -> JSONMemberSpan {
    JSONMemberSpan(
      key: key, value: value, member: member.lowerBound + distance..<member.upperBound + distance,
      keyRange: keyRange.lowerBound + distance..<keyRange.upperBound + distance,
      valueRange: valueRange.lowerBound + distance..<valueRange.upperBound + distance)
  }
}

/// JSON text read once: its value, and where the members of each of its objects are.
public struct JSONText: Sendable {
  /// The text as read.
  public let bytes: [UInt8]
  /// Its value.
  public let value: JSONValue
  /// The offset of the value (after any leading whitespace).
  public let start: Int
  /// The members of every object in the text, by the offset of its `{`.
  private let objects: [Int: [JSONMemberSpan]]

  /// Parses `bytes` as `JSONValue(parsing:)` does, keeping where each object's members are.
  public init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
    var reader = JSONReader(bytes: bytes)
    reader.objects = [:]
    reader.skipWhitespace()
    start = reader.index
    value = try reader.value(depth: 0)
    reader.skipWhitespace()
    guard reader.atEnd else { throw reader.error("unexpected text after the JSON value") }
    self.bytes = bytes
    objects = reader.objects ?? [:]
  }

  /// The members of the object whose `{` is at `offset`, in order; nil when no object starts
  /// there.
  public func members(ofObjectAt offset: Int) -> [JSONMemberSpan]? { objects[offset] }
}

/// A cursor over JSON text; every method leaves `index` after what it read.
private struct JSONReader {
  let bytes: [UInt8]
  var index = 0
  /// When not nil, the members of every object read, by the offset of its `{`.
  var objects: [Int: [JSONMemberSpan]]?

  init(bytes: [UInt8]) { self.bytes = bytes }

  var atEnd: Bool { index == bytes.count }

  func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(reason: reason, offset: index) }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard index < bytes.count else { throw error("unexpected end of the JSON text") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object(depth: depth + 1)
    case UInt8(ascii: "["): return try array(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw error("unexpected character")
    }
  }

  private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard depth <= JSONValue.maxDepth else { throw error("nested too deeply") }
    let objectStart = index
    index += 1
    var members: [(String, JSONValue)] = []
    var spans: [JSONMemberSpan] = []
    var seen: Set<[UInt8]> = []
    skipWhitespace()
    var more = !take(UInt8(ascii: "}"))
    while more {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a quoted key")
      }
      let keyOffset = index
      let key = try string()
      guard seen.insert(Array(key.utf8)).inserted else {
        throw JSONSyntaxError(reason: "the key \"\(key)\" appears twice", offset: keyOffset)
      }
      let keyEnd = index
      skipWhitespace()
      guard take(UInt8(ascii: ":")) else { throw error("expected ':' after a key") }
      skipWhitespace()
      let valueStart = index
      let member = try value(depth: depth)
      members.append((key, member))
      if objects != nil {
        spans.append(
          JSONMemberSpan(
            key: key, value: member, member: keyOffset..<index, keyRange: keyOffset..<keyEnd,
            valueRange: valueStart..<index))
      }
      skipWhitespace()
      more = !take(UInt8(ascii: "}"))
      if more {
        guard take(UInt8(ascii: ",")) else { throw error("expected ',' or '}' in an object") }
        skipWhitespace()
      }
    }
    if objects != nil { objects?[objectStart] = spans }
    return .object(members)
  }

  private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard depth <= JSONValue.maxDepth else { throw error("nested too deeply") }
    index += 1
    var items: [JSONValue] = []
    skipWhitespace()
    if take(UInt8(ascii: "]")) { return .array(items) }
    while true {
      items.append(try value(depth: depth))
      skipWhitespace()
      if take(UInt8(ascii: "]")) { return .array(items) }
      guard take(UInt8(ascii: ",")) else { throw error("expected ',' or ']' in an array") }
      skipWhitespace()
    }
  }

  private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
      (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
    else { throw error("unexpected character") }
    index += count
  }

  private mutating func take(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  /// A quoted string; the opening quote is at `index`.
  private mutating func string() throws(JSONSyntaxError) -> String {
    index += 1
    let start = index
    // The common case: no escapes, so the bytes between the quotes are the string.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        defer { index += 1 }
        return try validated(bytes[start..<index], from: start)
      }
      if byte == UInt8(ascii: "\\") { break }
      guard byte >= 0x20 else { throw error("a control character inside a string") }
      index += 1
    }
    var out = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return try validated(out[...], from: start)
      case UInt8(ascii: "\\"):
        index += 1
        try escape(into: &out)
      case 0..<0x20:
        throw error("a control character inside a string")
      default:
        out.append(byte)
        index += 1
      }
    }
    throw error("a string is not closed")
  }

  private func validated(_ slice: ArraySlice<UInt8>, from start: Int) throws(JSONSyntaxError)
    -> String
  {
    guard let text = String(validating: slice, as: UTF8.self) else {
      throw JSONSyntaxError(reason: "a string is not valid UTF-8", offset: start)
    }
    return text
  }

  /// One escape after its backslash, appended as UTF-8.
  private mutating func escape(into out: inout [UInt8]) throws(JSONSyntaxError) {
    guard index < bytes.count else { throw error("a string is not closed") }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
    case UInt8(ascii: "b"): out.append(0x08)
    case UInt8(ascii: "f"): out.append(0x0C)
    case UInt8(ascii: "n"): out.append(0x0A)
    case UInt8(ascii: "r"): out.append(0x0D)
    case UInt8(ascii: "t"): out.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = UInt32(try hex4())
      if (0xD800..<0xDC00).contains(scalar) {
        guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")) else {
          throw error("a high surrogate without its low surrogate")
        }
        let low = UInt32(try hex4())
        guard (0xDC00..<0xE000).contains(low) else {
          throw error("a high surrogate without its low surrogate")
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00..<0xE000).contains(scalar) {
        throw error("a low surrogate without its high surrogate")
      }
      guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
      out.append(contentsOf: String(Character(unicode)).utf8)
    default:
      throw error("an invalid escape")
    }
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt16 {
    guard index + 4 <= bytes.count else { throw error("an invalid \\u escape") }
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard let digit = hexValue(bytes[index]) else { throw error("an invalid \\u escape") }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
  private mutating func number() throws(JSONSyntaxError) -> JSONValue {
    let start = index
    _ = take(UInt8(ascii: "-"))
    guard index < bytes.count, isDigit(bytes[index]) else { throw error("a malformed number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) {
        throw error("a number with a leading zero")
      }
    } else {
      skipDigits()
    }
    if take(UInt8(ascii: ".")) {
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("a malformed number") }
      skipDigits()
    }
    if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
      if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("a malformed number") }
      skipDigits()
    }
    return .number(String(decoding: bytes[start..<index], as: UTF8.self))
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private mutating func skipDigits() {
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
  }
}
