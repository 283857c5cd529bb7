/// Grey progressive JPEGs of any size and any number of scans, built byte by byte: the file a
/// decoder pays for by the scan (each scan walks every block of the picture) while its bytes
/// stay few. Every block is flat (DC only, all AC coefficients zero), so each AC scan is a few
/// end-of-band runs; the scans follow a valid progression that libjpeg decodes without a
/// warning: the DC scan, then for each coefficient 1 to 63 in turn its first AC scan (Al 13)
/// and its 13 refinements (Ah 13 down to 1), 14 scans each, 883 in all.
public enum ProgressiveJPEG {
  /// The most scans the progression holds (1 DC scan and 63 × 14 AC scans).
  public static let maxScans = 1 + 63 * 14

  /// A grey `width`x`height` progressive JPEG of `scans` scans (1 to `maxScans`).
  public static func grey(width: Int, height: Int, scans: Int) -> [UInt8] {
    precondition(width > 0 && height > 0 && width <= 65535 && height <= 65535)
    precondition(scans >= 1 && scans <= maxScans)
    let blocks = ((width + 7) / 8) * ((height + 7) / 8)
    var out: [UInt8] = [0xFF, 0xD8]
    // One quantization table of ones.
    segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64), into: &out)
    // SOF2: 8 bits, the size, one component (id 1, 1x1, table 0).
    segment(
      0xC2,
      [8] + be16(height) + be16(width) + [1, 1, 0x11, 0],
      into: &out)
    // DC table 0: the one symbol 0 (no difference), a 1-bit code.
    segment(0xC4, [0x00] + [1] + [UInt8](repeating: 0, count: 15) + [0x00], into: &out)
    // AC table 0: the end-of-band runs EOB0 to EOB14 (symbols 0x00 to 0xE0), 4-bit codes.
    var counts = [UInt8](repeating: 0, count: 16)
    counts[3] = 15
    segment(0xC4, [0x10] + counts + (0..<15).map { UInt8($0 << 4) }, into: &out)
    // The DC scan: one 0 bit per block.
    segment(0xDA, [1, 1, 0x00, 0, 0, 0x00], into: &out)
    var bits = BitWriter()
    for _ in 0..<blocks { bits.write(0, count: 1) }
    out += bits.finished()
    // The AC scans, each one coefficient and one bit plane: every block in end-of-band runs.
    var written = 1
    outer: for coefficient in 1...63 {
      for plane in 0..<14 where written < scans {
        let (high, low) = plane == 0 ? (0, 13) : (14 - plane, 13 - plane)
        segment(
          0xDA,
          [1, 1, 0x00, UInt8(coefficient), UInt8(coefficient), UInt8(high << 4 | low)],
          into: &out)
        out += endOfBandRuns(blocks)
        written += 1
      }
      if written >= scans { break outer }
    }
    out += [0xFF, 0xD9]
    return out
  }

  /// Entropy-coded data of `blocks` blocks in end-of-band runs of at most 32767 blocks.
  static func endOfBandRuns(_ blocks: Int) -> [UInt8] {
    var bits = BitWriter()
    var left = blocks
    while left > 0 {
      let run = min(left, 32767)
      let range = Int.bitWidth - 1 - run.leadingZeroBitCount
      bits.write(range, count: 4)
      bits.write(run - (1 << range), count: range)
      left -= run
    }
    return bits.finished()
  }

  static func segment(_ marker: UInt8, _ payload: [UInt8], into out: inout [UInt8]) {
    out += [0xFF, marker] + be16(payload.count + 2) + payload
  }

  static func be16(_ value: Int) -> [UInt8] {
    [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  /// Bits most significant first, with a zero byte stuffed after each 0xFF and the last byte
  /// padded with ones, as JPEG's entropy-coded data is.
  struct BitWriter {
    private var bytes: [UInt8] = []
    private var current = 0
    private var used = 0

    mutating func write(_ value: Int, count: Int) {
      for shift in stride(from: count - 1, through: 0, by: -1) {
        current = current << 1 | (value >> shift & 1)
        used += 1
        if used == 8 { flush() }
      }
    }

    private mutating func flush() {
      bytes.append(UInt8(current))
      if current == 0xFF { bytes.append(0) }
      current = 0
      used = 0
    }

    mutating func finished() -> [UInt8] {
      if used > 0 {
        let pad = 8 - used
        current = current << pad | (1 << pad - 1)
        used = 8
        flush()
      }
      return bytes
    }
  }
}
