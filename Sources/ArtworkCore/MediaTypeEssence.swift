/// The lowercased `type/subtype` of a Content-Type header value, without parameters.
///
/// Works on the UTF-8 bytes: it runs on every upload and URL request, on a server thread.
public func mediaTypeEssence(_ header: String) -> String {
  let bytes = header.utf8
  let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
  let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
  guard let first = bytes[..<end].firstIndex(where: { !isSpace($0) }),
    let last = bytes[..<end].lastIndex(where: { !isSpace($0) })
  else { return "" }
  let lowered = bytes[first...last].map { byte in
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
  }
  return String(decoding: lowered, as: UTF8.self)
}
