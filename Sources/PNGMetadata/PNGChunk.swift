/// One chunk of a PNG, where it lies in the file: length (4 bytes, big-endian), type (4), data,
/// CRC (4).
struct PNGChunk: Equatable {
  /// The four-letter type (`IHDR`, `iCCP`...).
  var type: String
  /// Offset of the chunk's first byte (its length field).
  var start: Int
  /// Offset of its data.
  var dataStart: Int
  /// Offset just past its data.
  var dataEnd: Int
  /// Offset just past its CRC.
  var end: Int

  /// The eight bytes every PNG starts with.
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The chunks of `bytes` from the signature to `IEND` inclusive; nil when `bytes` is not a PNG
  /// or a chunk's length runs past the end (no index is ever taken outside `bytes`).
  static func walk(_ bytes: UnsafeRawBufferPointer) -> [PNGChunk]? {
    guard bytes.count >= signature.count, bytes.prefix(signature.count).elementsEqual(signature)
    else { return nil }
    var chunks: [PNGChunk] = []
    var offset = signature.count
    while offset < bytes.count {
      guard bytes.count - offset >= 12 else { return nil }
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      // The format caps a length at 2^31 - 1; anything longer than what is left is cut short.
      guard length <= bytes.count - offset - 12 else { return nil }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      let chunk = PNGChunk(
        type: type, start: offset, dataStart: offset + 8, dataEnd: offset + 8 + length,
        end: offset + 12 + length)
      chunks.append(chunk)
      offset = chunk.end
      if type == "IEND" { break }
    }
    return chunks
  }
}
