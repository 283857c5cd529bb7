import Foundation

/// The last `capacity` bytes of a stream, as text.
struct TailBuffer {
  let capacity: Int
  private var bytes: [UInt8] = []

  init(capacity: Int) { self.capacity = capacity }

  mutating func append(_ more: ArraySlice<UInt8>) {
    bytes.append(contentsOf: more)
    if bytes.count > capacity { bytes.removeFirst(bytes.count - capacity) }
  }

  /// The bytes as UTF-8 (invalid sequences replaced), lines joined by `; `, trimmed.
  var text: String {
    String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      .joined(separator: "; ")
  }
}
