/// A minimal PNG encoder: signature, IHDR, one IDAT of zlib stored blocks (one per row), IEND.
///
/// The layout follows the reference's `rgbaToDataURL` (each row is one stored deflate block
/// holding the filter byte 0 and the row), so a decoded ThumbHash gives the same bytes.
enum PNGWriter {
  /// PNG bytes for `pixels` (`width * height * 4` bytes, RGBA). Rows must fit one stored block
  /// (`width * 4 + 1 <= 65535`), which holds for every `ThumbHashImage`.
  static func rgba(width: Int, height: Int, pixels: [UInt8]) -> [UInt8] {
    let row = width * 4 + 1
    let idatLength = 6 + height * (5 + row)  // zlib header + blocks + Adler-32
    var bytes: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
    bytes.reserveCapacity(8 + 25 + 12 + idatLength + 12)

    var ihdr: [UInt8] = []
    appendBigEndian(UInt32(width), to: &ihdr)
    appendBigEndian(UInt32(height), to: &ihdr)
    ihdr += [8, 6, 0, 0, 0]  // 8 bits per channel, RGBA, deflate, no filter choice, no interlace
    appendChunk(type: "IHDR", data: ihdr, to: &bytes)

    var idat: [UInt8] = [0x78, 0x01]  // zlib: deflate, 32K window, no dictionary, lowest level
    idat.reserveCapacity(idatLength)
    var adler = Adler32()
    for y in 0..<height {
      idat.append(y + 1 < height ? 0 : 1)  // BFINAL on the last row, BTYPE 00 (stored)
      idat += [UInt8(row & 255), UInt8(row >> 8), UInt8(~row & 255), UInt8((row >> 8) ^ 255)]
      idat.append(0)  // filter: none
      adler.update(0)
      let start = y * width * 4
      for i in start..<(start + width * 4) {
        idat.append(pixels[i])
        adler.update(pixels[i])
      }
    }
    appendBigEndian(adler.value, to: &idat)
    appendChunk(type: "IDAT", data: idat, to: &bytes)
    appendChunk(type: "IEND", data: [], to: &bytes)
    return bytes
  }

  /// Appends length, type, data and the CRC-32 of type + data.
  private static func appendChunk(type: String, data: [UInt8], to bytes: inout [UInt8]) {
    appendBigEndian(UInt32(data.count), to: &bytes)
    let typeBytes = Array(type.utf8)
    var crc = CRC32()
    crc.update(typeBytes)
    crc.update(data)
    bytes += typeBytes
    bytes += data
    appendBigEndian(crc.value, to: &bytes)
  }

  private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
    bytes += [
      UInt8(value >> 24), UInt8(value >> 16 & 255), UInt8(value >> 8 & 255), UInt8(value & 255),
    ]
  }
}
