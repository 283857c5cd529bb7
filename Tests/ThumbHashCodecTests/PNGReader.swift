/// An independent, strict reader of 8-bit RGBA PNGs: it checks the signature, every chunk's
/// CRC, the IHDR fields and the pixel data's length, undoes the row filters, and returns the
/// pixels. Written apart from the library so a shared bug cannot hide.
///
/// The codec writes stored deflate blocks, so by default the reader accepts only those
/// (`inflateStored`, which also checks the zlib header and the Adler-32); the reference vectors
/// are compressed, and are read with `inflate: ZlibInflate.whole`.
struct PNGReader {
  /// What went wrong while reading.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let width: Int
  let height: Int
  let rgba: [UInt8]

  init(_ bytes: [UInt8], inflate: ([UInt8]) throws -> [UInt8] = PNGReader.inflateStored) throws {
    let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
      throw Failure(description: "signature")
    }
    var offset = 8
    var chunks: [(type: String, data: [UInt8])] = []
    while offset < bytes.count {
      guard offset + 12 <= bytes.count else { throw Failure(description: "chunk header") }
      let length = Int(Self.bigEndian(bytes, offset))
      guard offset + 12 + length <= bytes.count else { throw Failure(description: "chunk length") }
      let typeAndData = Array(bytes[(offset + 4)..<(offset + 8 + length)])
      guard Self.crc32(typeAndData) == Self.bigEndian(bytes, offset + 8 + length) else {
        throw Failure(description: "CRC")
      }
      chunks.append((String(decoding: typeAndData[0..<4], as: UTF8.self), Array(typeAndData[4...])))
      offset += 12 + length
    }
    guard chunks.first?.type == "IHDR", chunks.last?.type == "IEND",
      chunks.last?.data.isEmpty == true
    else { throw Failure(description: "chunk order") }
    let ihdr = chunks[0].data
    guard ihdr.count == 13 else { throw Failure(description: "IHDR length") }
    width = Int(Self.bigEndian(ihdr, 0))
    height = Int(Self.bigEndian(ihdr, 4))
    guard Array(ihdr[8..<13]) == [8, 6, 0, 0, 0] else { throw Failure(description: "IHDR format") }
    let zlib = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
    let raw = try inflate(zlib)
    let stride = width * 4
    guard raw.count == (stride + 1) * height else {
      throw Failure(description: "pixel data length")
    }
    var pixels = [UInt8](repeating: 0, count: stride * height)
    for y in 0..<height {
      let filter = raw[y * (stride + 1)]
      guard filter <= 4 else { throw Failure(description: "filter type") }
      for x in 0..<stride {
        let left = x >= 4 ? Int(pixels[y * stride + x - 4]) : 0
        let up = y > 0 ? Int(pixels[(y - 1) * stride + x]) : 0
        let upLeft = x >= 4 && y > 0 ? Int(pixels[(y - 1) * stride + x - 4]) : 0
        let predictor: Int
        switch filter {
        case 0: predictor = 0
        case 1: predictor = left
        case 2: predictor = up
        case 3: predictor = (left + up) / 2
        default: predictor = Self.paeth(left, up, upLeft)
        }
        pixels[y * stride + x] = UInt8(
          truncatingIfNeeded: Int(raw[y * (stride + 1) + 1 + x]) + predictor)
      }
    }
    rgba = pixels
  }

  /// The Paeth predictor of the PNG specification: whichever neighbour is nearest to
  /// left + up - upLeft, ties going to left, then up.
  static func paeth(_ left: Int, _ up: Int, _ upLeft: Int) -> Int {
    let estimate = left + up - upLeft
    let (toLeft, toUp, toUpLeft) = (
      abs(estimate - left), abs(estimate - up), abs(estimate - upLeft)
    )
    if toLeft <= toUp && toLeft <= toUpLeft { return left }
    return toUp <= toUpLeft ? up : upLeft
  }

  /// Inflates a zlib stream made only of stored blocks, checking header and Adler-32.
  static func inflateStored(_ stream: [UInt8]) throws -> [UInt8] {
    guard stream.count >= 6, stream[0] & 0x0f == 8,
      (Int(stream[0]) << 8 | Int(stream[1])) % 31 == 0,
      stream[1] & 0x20 == 0
    else { throw Failure(description: "zlib header") }
    var offset = 2
    var output: [UInt8] = []
    var final = false
    while !final {
      guard offset + 5 <= stream.count else { throw Failure(description: "block header") }
      let header = stream[offset]
      final = header & 1 == 1
      guard header >> 1 & 3 == 0 else { throw Failure(description: "not a stored block") }
      let length = Int(stream[offset + 1]) | Int(stream[offset + 2]) << 8
      let complement = Int(stream[offset + 3]) | Int(stream[offset + 4]) << 8
      guard length ^ 0xffff == complement else { throw Failure(description: "NLEN") }
      offset += 5
      guard offset + length <= stream.count else { throw Failure(description: "block length") }
      output += stream[offset..<(offset + length)]
      offset += length
    }
    guard offset + 4 == stream.count else { throw Failure(description: "trailing data") }
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in output {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    guard bigEndian(stream, offset) == b << 16 | a else { throw Failure(description: "Adler-32") }
    return output
  }

  static func bigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
      | UInt32(bytes[offset + 3])
  }

  /// Bitwise CRC-32 (no table, unlike the library's).
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xffff_ffff
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
