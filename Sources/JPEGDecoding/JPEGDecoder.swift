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
  /// The colour space a decode in `.native` layout gives.
  public enum Space: Sendable, Equatable {
    case grey
    case rgb
    /// CMYK (from CMYK or YCCK; Adobe's inverted samples already turned back).
    case cmyk
    /// Components of a colour space libjpeg does not know, as stored.
    case raw
  }

  /// How a decode lays out its pixels.
  public enum Layout: Sendable, Equatable {
    /// Packed RGB (greyscale, YCbCr and RGB sources only: `Header.isSupported`).
    case rgb
    /// The source's own channels (`Header.space`, `Header.channels`).
    case native

    var code: Int32 { self == .rgb ? Int32(ARTWORK_JPEG_RGB) : Int32(ARTWORK_JPEG_NATIVE) }
  }

  /// What the header declares.
  public struct Header: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Greyscale, YCbCr or RGB: colours this decoder converts to RGB. CMYK and YCCK are not.
    public var isSupported: Bool
    /// The colour space of a `.native` decode, and its channels per pixel.
    public var space: Space
    public var channels: Int
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
    var space: Int32 = 0
    var channels: Int32 = 0
    let status = artwork_jpeg_header(
      bytes.address, bytes.count, &width, &height, &supported, &space, &channels)
    guard status == 0 else { return nil }
    let named: Space =
      switch Int(space) {
      case Int(ARTWORK_JPEG_SPACE_GREY): .grey
      case Int(ARTWORK_JPEG_SPACE_RGB): .rgb
      case Int(ARTWORK_JPEG_SPACE_CMYK): .cmyk
      default: .raw
      }
    return Header(
      width: Int(width), height: Int(height), isSupported: supported != 0, space: named,
      channels: Int(channels))
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
    try pixels(bytes, eighths: eighths, layout: .rgb, crop: crop).bytes
  }

  /// The `crop` rectangle decoded at `eighths`/8 in `layout`: its bytes, `channels` per pixel.
  /// The decode is finished to the end of the data, so damage anywhere in it is a failure.
  public static func pixels(
    _ bytes: PinnedBytes, eighths: Int, layout: Layout,
    crop: (x: Int, y: Int, width: Int, height: Int)
  ) throws(Failure) -> (bytes: [UInt8], channels: Int) {
    let rows = try Rows(bytes, eighths: eighths, layout: layout, crop: crop)
    let (count, overflow) = crop.width.multipliedReportingOverflow(by: crop.height * rows.channels)
    guard !overflow else { throw .unsupported("a rectangle of \(crop)") }
    var pixels = [UInt8](repeating: 0, count: count)
    try pixels.withUnsafeMutableBufferPointer { (buffer) throws(Failure) in
      try rows.read(crop.height, into: buffer.baseAddress!)
    }
    return (pixels, rows.channels)
  }

  /// The rows of one rectangle of a JPEG decoded at a scale of eighths, read in order a strip at
  /// a time: a decoder's output streams into the resampler with no copy of the whole. Once the
  /// last row is read, the rest of the data is decoded (without its pixels) to its end, so that
  /// damage after the rectangle is found too.
  public final class Rows {
    /// The rectangle's width in pixels.
    public let width: Int
    /// Bytes per pixel (3 for `.rgb`).
    public let channels: Int
    /// Rows not yet read.
    public private(set) var remaining: Int
    private let decode: UnsafeMutablePointer<artwork_jpeg_rows>
    /// The strip `next` answers, allocated once at the largest count asked for.
    private var strip = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    /// The bytes being decoded, kept until the decode is closed: libjpeg reads them through the
    /// address taken at `init`, as libvips does a `VipsSource`'s.
    private let bytes: PinnedBytes

    /// Starts decoding `crop` (in the pixels of the picture scaled by `eighths`/8, 1-8) in
    /// `layout`.
    public init(
      _ bytes: PinnedBytes, eighths: Int, layout: Layout = .rgb,
      crop: (x: Int, y: Int, width: Int, height: Int)
    ) throws(Failure) {
      guard (1...8).contains(eighths), crop.width > 0, crop.height > 0, !bytes.isEmpty,
        let x = Int32(exactly: crop.x), let y = Int32(exactly: crop.y),
        let cropWidth = Int32(exactly: crop.width), let cropHeight = Int32(exactly: crop.height)
      else {
        throw .unsupported("scale \(eighths)/8, crop \(crop)")
      }
      var status: Int32 = 0
      var channels: Int32 = 0
      var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
      let opened = artwork_jpeg_rows_open(
        bytes.address, bytes.count, Int32(eighths), layout.code, x, y, cropWidth, cropHeight,
        &channels, &status, &message)
      guard let opened else { throw Self.failure(status, message) }
      self.bytes = bytes
      decode = opened
      width = crop.width
      self.channels = Int(channels)
      remaining = crop.height
    }

    deinit {
      artwork_jpeg_rows_close(decode)
      strip.deallocate()
    }

    /// The next `count` rows, `width * channels` bytes each; valid until the next call.
    public func next(_ count: Int) throws(Failure) -> UnsafePointer<UInt8> {
      if strip.count < count * width * channels {
        strip.deallocate()
        strip = .allocate(capacity: count * width * channels)
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
