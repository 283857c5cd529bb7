/// A JPEG's frame header (its first SOF segment), read from the markers before any decoder sees
/// the data: which coding process the picture uses, its sample precision and how each component
/// is sampled. What tells a variant the decoder does not read (`UnsupportedVariant`) from one it
/// does.
///
/// The walk follows the header's segments by their lengths from the start of image to the first
/// frame header; stray bytes between segments are passed over as a decoder does. Nil when no
/// frame header comes before a scan, the end of image or the end of the data, or when one is cut
/// short: the decoder refuses those itself.
public struct JPEGFrameHeader: Sendable, Equatable {
  /// One component's sampling factors, as declared (1-4 in a valid file).
  public struct Sampling: Sendable, Equatable {
    public var horizontal: Int
    public var vertical: Int

    public init(horizontal: Int, vertical: Int) {
      self.horizontal = horizontal
      self.vertical = vertical
    }
  }

  /// The frame marker's code: 0xC0-0xCF but DHT (0xC4), JPG (0xC8) and DAC (0xCC).
  public var marker: UInt8
  /// Bits per sample (8 for nearly every JPEG; 12 and 16 exist).
  public var precision: Int
  public var width: Int
  public var height: Int
  /// Each component's sampling factors, in the frame's order.
  public var components: [Sampling]

  public init(
    marker: UInt8, precision: Int, width: Int, height: Int, components: [Sampling]
  ) {
    self.marker = marker
    self.precision = precision
    self.width = width
    self.height = height
    self.components = components
  }

  /// The frame header of the JPEG in `bytes`, or nil (see the type's summary).
  public static func read(_ bytes: UnsafeRawBufferPointer) -> JPEGFrameHeader? {
    let end = bytes.count
    guard end >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var index = 2
    while index < end {
      // The next marker: anything but 0xFF before it is stray, fill bytes (0xFF) repeat.
      guard bytes[index] == 0xFF else {
        index += 1
        continue
      }
      var codeIndex = index + 1
      while codeIndex < end && bytes[codeIndex] == 0xFF { codeIndex += 1 }
      guard codeIndex < end else { return nil }
      let marker = bytes[codeIndex]
      index = codeIndex + 1
      switch marker {
      case 0x00: continue  // not a marker: a stray 0xFF 0x00
      case 0x01, 0xD0...0xD7: continue  // standalone, no length
      case 0xD8, 0xD9, 0xDA: return nil  // a scan or an end before any frame
      default: break
      }
      guard index + 2 <= end else { return nil }
      let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
      guard length >= 2, index + length <= end else { return nil }
      if isFrameHeader(marker) { return frame(marker, bytes, payload: index + 2, length: length) }
      index += length
    }
    return nil
  }

  /// The frame header whose segment of `length` (its length field included) has its payload
  /// at `payload`; nil when the segment is too short for the components it declares.
  private static func frame(
    _ marker: UInt8, _ bytes: UnsafeRawBufferPointer, payload: Int, length: Int
  ) -> JPEGFrameHeader? {
    guard length >= 8 else { return nil }
    let count = Int(bytes[payload + 5])
    guard length >= 8 + 3 * count else { return nil }
    let components = (0..<count).map { index in
      let factors = bytes[payload + 6 + 3 * index + 1]
      return Sampling(horizontal: Int(factors >> 4), vertical: Int(factors & 0x0F))
    }
    return JPEGFrameHeader(
      marker: marker, precision: Int(bytes[payload]),
      width: Int(bytes[payload + 3]) << 8 | Int(bytes[payload + 4]),
      height: Int(bytes[payload + 1]) << 8 | Int(bytes[payload + 2]), components: components)
  }

  /// Whether `marker` starts a frame header: SOF0-SOF15 but DHT, JPG and DAC.
  static func isFrameHeader(_ marker: UInt8) -> Bool {
    (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
  }
}
