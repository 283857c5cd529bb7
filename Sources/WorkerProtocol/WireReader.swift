/// Reads one message of the worker protocol. Every read checks what is left first; a message
/// that is short, too long or holds an unknown value is refused (`WireReader.Malformed`), never
/// trapped on: the service reads what a worker says as it reads a client, since a worker that a
/// hostile image took over may say anything.
package struct WireReader {
  /// The message did not follow the protocol; what was wrong.
  package struct Malformed: Error, CustomStringConvertible {
    package let description: String
  }

  private let bytes: [UInt8]
  private var offset = 0

  package init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Bytes not read yet.
  package var remaining: Int { bytes.count - offset }

  private mutating func take(_ count: Int) throws(Malformed) -> ArraySlice<UInt8> {
    guard count >= 0, count <= remaining else {
      throw Malformed(description: "\(count) bytes wanted at \(offset), \(remaining) left")
    }
    defer { offset += count }
    return bytes[offset..<offset + count]
  }

  package mutating func u8() throws(Malformed) -> UInt8 { try take(1).first! }

  package mutating func u32() throws(Malformed) -> UInt32 {
    try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  package mutating func u64() throws(Malformed) -> UInt64 {
    try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// A count or size, at most `limit`.
  package mutating func int(atMost limit: Int) throws(Malformed) -> Int {
    let value = try u64()
    guard let number = Int(exactly: value), number <= limit else {
      throw Malformed(description: "\(value) over \(limit)")
    }
    return number
  }

  package mutating func bool() throws(Malformed) -> Bool {
    switch try u8() {
    case 0: return false
    case 1: return true
    case let other: throw Malformed(description: "\(other) is not a boolean")
    }
  }

  /// A byte string of at most `limit` bytes.
  package mutating func data(atMost limit: Int) throws(Malformed) -> [UInt8] {
    let count = Int(try u32())
    guard count <= limit else { throw Malformed(description: "a string of \(count) bytes") }
    return Array(try take(count))
  }

  /// UTF-8 text of at most `limit` bytes; invalid UTF-8 is refused (a writer sends Swift
  /// strings, which are always valid), so that what is read is exactly what was written.
  package mutating func text(atMost limit: Int = 4096) throws(Malformed) -> String {
    let bytes = try data(atMost: limit)
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw Malformed(description: "\(bytes.count) bytes that are not UTF-8")
    }
    return text
  }

  /// A value of a `RawRepresentable` enum written as its raw text.
  package mutating func named<T: RawRepresentable>(_ type: T.Type) throws(Malformed) -> T
  where T.RawValue == String {
    let raw = try text(atMost: 64)
    guard let value = T(rawValue: raw) else {
      throw Malformed(description: "\(raw) is not a \(T.self)")
    }
    return value
  }

  /// Refuses bytes left over.
  package func finish() throws(Malformed) {
    guard remaining == 0 else { throw Malformed(description: "\(remaining) bytes left over") }
  }
}
