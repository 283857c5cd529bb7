import ArtworkCore
internal import CJPEG

/// JPEG decoded straight by libjpeg-turbo, at any scale of eighths and a rectangle at a time,
/// into packed 8-bit RGB.
///
/// libvips 8.14's loader offers DCT scaling at 1/2, 1/4 and 1/8 only, and adds about a fifth to
/// libjpeg's own time (34.5 ms against 29 ms for a 2000x3000 poster at 1/2). libjpeg-turbo
/// scales by any M/8: at 3/8 the same poster decodes to 750x1125, which still covers 400x600
/// with 1.9x to spare, where 1/4 would leave 1.25x and 1/2 hands the resampler twice the pixels.
/// Entropy decoding costs the same at every scale; what a smaller scale saves is the inverse DCT,
/// the colour conversion and the resampling after.
public enum JPEGDecoder {
  /// What the header declares.
  public struct Header: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Greyscale, YCbCr or RGB: colours this decoder converts. CMYK and YCCK are not.
    public var isSupported: Bool
  }

  /// Why a decode did not produce pixels.
  public enum Failure: Error, Equatable {
    /// libjpeg stopped, or warned that the data is corrupt (anything but stray bytes between two
    /// header segments); its words.
    case damaged(String)
    /// The colour layout needs another decoder, or the rectangle lies outside the picture.
    case unsupported(String)
  }

  /// The header of `bytes`, or nil when libjpeg cannot read one.
  public static func header(_ bytes: PinnedBytes) -> Header? {
    guard !bytes.isEmpty else { return nil }
    var width: Int32 = 0
    var height: Int32 = 0
    var supported: Int32 = 0
    let status = artwork_jpeg_header(bytes.address, bytes.count, &width, &height, &supported)
    guard status == 0 else { return nil }
    return Header(width: Int(width), height: Int(height), isSupported: supported != 0)
  }

  /// The size of the picture decoded at `eighths`/8: libjpeg rounds each side up.
  public static func scaledSize(width: Int, height: Int, eighths: Int) -> (
    width: Int, height: Int
  ) {
    ((width * eighths + 7) / 8, (height * eighths + 7) / 8)
  }

  /// The `crop` rectangle of the picture decoded at `eighths`/8 (1-8; the rectangle in the
  /// scaled picture's pixels), as packed RGB: `crop.width * crop.height * 3` bytes.
  public static func rgb(
    _ bytes: PinnedBytes, eighths: Int, crop: (x: Int, y: Int, width: Int, height: Int)
  ) throws(Failure) -> [UInt8] {
    let rows = try Rows(bytes, eighths: eighths, crop: crop)
    var pixels = [UInt8](repeating: 0, count: crop.width * crop.height * 3)
    try pixels.withUnsafeMutableBufferPointer { (buffer) throws(Failure) in
      try rows.read(crop.height, into: buffer.baseAddress!)
    }
    return pixels
  }

  /// The rows of one rectangle of a JPEG decoded at a scale of eighths, read in order a strip at
  /// a time: a decoder's output streams into the resampler with no copy of the whole.
  public final class Rows {
    /// The rectangle's width in pixels.
    public let width: Int
    /// Rows not yet read.
    public private(set) var remaining: Int
    private let decode: UnsafeMutablePointer<artwork_jpeg_rows>
    /// The strip `next` answers, allocated once at the largest count asked for.
    private var strip = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    /// The bytes being decoded, kept until the decode is closed: libjpeg reads them through the
    /// address taken at `init`, as libvips does a `VipsSource`'s.
    private let bytes: PinnedBytes

    /// Starts decoding `crop` (in the pixels of the picture scaled by `eighths`/8, 1-8).
    public init(
      _ bytes: PinnedBytes, eighths: Int, crop: (x: Int, y: Int, width: Int, height: Int)
    ) throws(Failure) {
      guard (1...8).contains(eighths), crop.width > 0, crop.height > 0, !bytes.isEmpty else {
        throw .unsupported("scale \(eighths)/8, crop \(crop)")
      }
      var status: Int32 = 0
      var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
      let opened = artwork_jpeg_rows_open(
        bytes.address, bytes.count, Int32(eighths), Int32(crop.x), Int32(crop.y),
        Int32(crop.width), Int32(crop.height), &status, &message)
      guard let opened else { throw Self.failure(status, message) }
      self.bytes = bytes
      decode = opened
      width = crop.width
      remaining = crop.height
    }

    deinit {
      artwork_jpeg_rows_close(decode)
      strip.deallocate()
    }

    /// The next `count` rows, packed RGB, `width * 3` bytes each; valid until the next call.
    public func next(_ count: Int) throws(Failure) -> UnsafePointer<UInt8> {
      if strip.count < count * width * 3 {
        strip.deallocate()
        strip = .allocate(capacity: count * width * 3)
      }
      try read(count, into: strip.baseAddress!)
      return UnsafePointer(strip.baseAddress!)
    }

    /// The next `count` rows into `out`.
    func read(_ count: Int, into out: UnsafeMutablePointer<UInt8>) throws(Failure) {
      var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
      let status = artwork_jpeg_rows_read(decode, out, Int32(count), &message)
      guard Int(status) == ARTWORK_JPEG_OK else { throw Self.failure(status, message) }
      remaining -= count
    }

    private static func failure(_ status: Int32, _ message: [CChar]) -> Failure {
      let words = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return Int(status) == ARTWORK_JPEG_DAMAGED
        ? .damaged(words) : .unsupported(words.isEmpty ? "libjpeg status \(status)" : words)
    }
  }
}
