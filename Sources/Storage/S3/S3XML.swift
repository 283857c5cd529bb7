/// Just enough XML reading for S3's answers (error bodies, ListObjectsV2): the text of simple
/// elements. S3 documents are flat and machine-written, so a scanner does; entities are decoded.
/// Never traps on malformed input: missing or unterminated elements are simply not found.
enum S3XML {
  /// The decoded text of every `<tag>…</tag>` in `body`, in document order.
  static func values(of tag: String, in body: [UInt8]) -> [String] {
    elements(of: tag, in: body).map { decodeEntities(String(decoding: $0, as: UTF8.self)) }
  }

  /// The decoded text of the first `<tag>…</tag>`, if any.
  static func firstValue(of tag: String, in body: [UInt8]) -> String? {
    elements(of: tag, in: body, limit: 1).first.map {
      decodeEntities(String(decoding: $0, as: UTF8.self))
    }
  }

  /// The raw contents of every `<tag>…</tag>` (tags with attributes included), for nested
  /// reading such as each `<Contents>` of a listing.
  static func elements(of tag: String, in body: [UInt8], limit: Int = .max) -> [ArraySlice<UInt8>] {
    let open = Array("<\(tag)".utf8)
    let close = Array("</\(tag)>".utf8)
    var found: [ArraySlice<UInt8>] = []
    var index = 0
    while found.count < limit, let start = find(open, in: body, from: index) {
      let afterName = start + open.count
      guard afterName < body.count else { break }
      // `<Key>`, `<Key/>` or `<Key attr="…">`, but not `<KeyCount>`.
      let next = body[afterName]
      guard next == UInt8(ascii: ">") || next == UInt8(ascii: " ") || next == UInt8(ascii: "/")
      else {
        index = afterName
        continue
      }
      guard let tagEnd = find([UInt8(ascii: ">")], in: body, from: afterName) else { break }
      if body[tagEnd - 1] == UInt8(ascii: "/") {  // `<Tag/>`: empty
        found.append(body[tagEnd..<tagEnd])
        index = tagEnd + 1
        continue
      }
      guard let end = find(close, in: body, from: tagEnd + 1) else { break }
      found.append(body[(tagEnd + 1)..<end])
      index = end + close.count
    }
    return found
  }

  private static func find(_ needle: [UInt8], in body: [UInt8], from: Int) -> Int? {
    guard !needle.isEmpty, from >= 0, body.count >= needle.count else { return nil }
    var i = from
    while i <= body.count - needle.count {
      if body[i] == needle[0] && body[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }

  /// Decodes the five named entities and numeric ones (`&#34;`, `&#x22;`); anything else is
  /// kept as written.
  static func decodeEntities(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var out = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      let afterAmp = rest.index(after: amp)
      guard let semi = rest[afterAmp...].prefix(10).firstIndex(of: ";") else {
        out += "&"
        rest = rest[afterAmp...]
        continue
      }
      let name = rest[afterAmp..<semi]
      if let decoded = decodeEntity(name) {
        out += decoded
      } else {
        out += rest[amp...semi]
      }
      rest = rest[rest.index(after: semi)...]
    }
    out += rest
    return out
  }

  private static func decodeEntity(_ name: Substring) -> String? {
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    default:
      guard name.hasPrefix("#") else { return nil }
      let digits = name.dropFirst()
      let value =
        digits.hasPrefix("x") || digits.hasPrefix("X")
        ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
      return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
  }
}
