#if canImport(Glibc)
  import Glibc
#endif

/// A JPEG's frame size and its scans, counted from its markers before any decoder sees it: what
/// decoding it will cost. Each scan of a progressive JPEG is one more pass of libjpeg over every
/// block of the picture, however few bytes the scan holds: 883 scans of a 6320x6320 picture fit
/// in 147 KB and take seconds of CPU time.
///
/// The walk follows the segments by their lengths (an APP1's embedded thumbnail, with scans of
/// its own, is skipped whole) and skips each scan's entropy-coded data to the next marker that
/// is not a stuffed byte or a restart (0xFF then 0x00 or 0xD0-0xD7), as a decoder does. It stops
/// at the end of image, or where the data is cut short or a length is impossible: the decoder
/// refuses those itself.
public struct JPEGScans: Sendable, Equatable {
  /// The frame's size, from its first frame header (SOF0-SOF15); 0 when none came.
  public var width = 0
  public var height = 0
  /// Whether the frame is progressive (SOF2, SOF6, SOF10, SOF14).
  public var isProgressive = false
  /// The scans (start-of-scan markers) before the end of image.
  public var count = 0

  public init(width: Int = 0, height: Int = 0, isProgressive: Bool = false, count: Int = 0) {
    self.width = width
    self.height = height
    self.isProgressive = isProgressive
    self.count = count
  }

  /// The frame size and scans of the JPEG in `bytes`; nil when they do not start with a JPEG's
  /// start of image (0xFF 0xD8).
  public static func read(_ bytes: UnsafeRawBufferPointer) -> JPEGScans? {
    let end = bytes.count
    guard end >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var scans = JPEGScans()
    var index = 2
    while true {
      // The next marker: stray bytes before it are passed over (libjpeg warns of them), and so
      // are fill bytes (0xFF repeated).
      guard let marker = nextMarker(bytes, from: &index) else { return scans }
      switch marker {
      case 0xD9: return scans
      case 0x01, 0xD0...0xD7: continue  // standalone: no length
      default: break
      }
      guard index + 2 <= end else { return scans }
      let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
      guard length >= 2, index + length <= end else { return scans }
      let payload = index + 2
      if isFrameHeader(marker), scans.width == 0, length >= 7 {
        scans.height = Int(bytes[payload + 1]) << 8 | Int(bytes[payload + 2])
        scans.width = Int(bytes[payload + 3]) << 8 | Int(bytes[payload + 4])
        scans.isProgressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
      }
      index += length
      if marker == 0xDA {
        scans.count += 1
        skipEntropyCodedData(bytes, from: &index)
      }
    }
  }

  /// The marker at or after `index` (its code, `index` then just past it), or nil at the end.
  private static func nextMarker(_ bytes: UnsafeRawBufferPointer, from index: inout Int)
    -> UInt8?
  {
    let end = bytes.count
    while index < end {
      guard let found = position(of: 0xFF, in: bytes, from: index) else {
        index = end
        return nil
      }
      index = found + 1
      while index < end && bytes[index] == 0xFF { index += 1 }
      guard index < end else { return nil }
      let code = bytes[index]
      index += 1
      if code != 0x00 { return code }
    }
    return nil
  }

  /// Moves `index` past a scan's entropy-coded data, to the 0xFF of the marker that ends it (or
  /// to the end of the data).
  private static func skipEntropyCodedData(_ bytes: UnsafeRawBufferPointer, from index: inout Int) {
    let end = bytes.count
    while let found = position(of: 0xFF, in: bytes, from: index) {
      var next = found + 1
      while next < end && bytes[next] == 0xFF { next += 1 }
      guard next < end else { break }
      let code = bytes[next]
      if code == 0x00 || (0xD0...0xD7).contains(code) {
        index = next + 1
        continue
      }
      index = next - 1
      return
    }
    index = end
  }

  /// The first position of `byte` in `bytes` at or after `start`.
  private static func position(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int)
    -> Int?
  {
    guard start < bytes.count, let base = bytes.baseAddress else { return nil }
    guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
    return base.distance(to: UnsafeRawPointer(found))
  }

  /// Whether `marker` starts a frame header: SOF0-SOF15 but DHT (0xC4), JPG (0xC8) and DAC
  /// (0xCC).
  private static func isFrameHeader(_ marker: UInt8) -> Bool {
    (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
  }
}
