/// Builds one message of the worker protocol: fixed-width little-endian integers and
/// length-prefixed byte strings, nothing else.
package struct WireWriter {
  package private(set) var bytes: [UInt8] = []

  package init() {}

  package mutating func u8(_ value: UInt8) { bytes.append(value) }

  package mutating func u32(_ value: UInt32) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  package mutating func u64(_ value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  /// A count or size (never negative in this protocol; a negative one is written as 0).
  package mutating func int(_ value: Int) { u64(UInt64(clamping: max(0, value))) }

  package mutating func bool(_ value: Bool) { u8(value ? 1 : 0) }

  /// A byte string, its length first.
  package mutating func data(_ value: [UInt8]) {
    u32(UInt32(clamping: value.count))
    bytes.append(contentsOf: value.prefix(Int(UInt32.max)))
  }

  /// UTF-8 text, its length first.
  package mutating func text(_ value: String) { data(Array(value.utf8)) }

  /// UTF-8 text cut to at most `limit` bytes, between two scalars so that what is sent stays
  /// valid UTF-8.
  package mutating func text(_ value: String, atMost limit: Int) {
    let scalars = value.unicodeScalars
    var count = 0
    var end = scalars.startIndex
    for scalar in scalars {
      count += UTF8.width(scalar)
      guard count <= limit else { break }
      end = scalars.index(after: end)
    }
    text(String(scalars[..<end]))
  }
}
