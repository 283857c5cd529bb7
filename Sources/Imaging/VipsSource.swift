import ArtworkCore
internal import CVips

/// Owns a libvips memory source over the caller's bytes, and opens images from it.
///
/// NOTE: no copy is made. libvips images read their source lazily, long after the call that
/// opened them, so the bytes must outlive every image and stay where they are: they are
/// `PinnedBytes` (whose address is fixed for their lifetime, unlike an array's), the source keeps
/// them, and every image made from it keeps the source (`VipsImage.keepAlive`). The operation
/// cache is off (`Vips.initialize`), so nothing in libvips holds an image once the last Swift
/// `VipsImage` is gone.
final class VipsSource {
  private let pointer: UnsafeMutablePointer<CVips.VipsSource>
  /// The bytes read (also by the decoders other than libvips').
  let bytes: PinnedBytes

  /// A source over `bytes`, kept for the source's lifetime.
  init(borrowing bytes: PinnedBytes) throws(ArtworkError) {
    guard let made = artwork_vips_source_wrap(bytes.address, bytes.count) else {
      throw Vips.failure(.internal, "The image could not be read.", call: "vips_source_new")
    }
    self.bytes = bytes
    pointer = made
  }

  /// A source over a copy of `bytes`.
  convenience init(copying bytes: [UInt8]) throws(ArtworkError) {
    try self.init(borrowing: PinnedBytes(copying: bytes))
  }

  deinit { artwork_vips_unref(pointer) }

  /// Parses the header only: the result knows its size, bands and metadata, and decodes its
  /// first frame in order, top to bottom, when pixels are asked for. Decode errors fail (libvips
  /// `fail_on` = error) rather than leave grey rows.
  func open() throws(ArtworkError) -> VipsImage {
    try opened(artwork_vips_open(pointer))
  }

  /// `open`, decoding at a fraction of the full size for formats that can (WebP by scaled
  /// decoding; a JPEG's pixels come from libjpeg's door, `ImagePipeline.jpegPicture`); `shrink`
  /// 1 is `open`.
  func open(format: ImageFormat, shrink: Int) throws(ArtworkError) -> VipsImage {
    guard shrink > 1, format == .webp else { return try open() }
    return try opened(artwork_vips_open_webp_scaled(pointer, 1 / Double(shrink)))
  }

  /// A HEIC or AVIF's embedded thumbnail (header parsed, no pixel decoded); the primary image
  /// when the file has none.
  func openHEIFThumbnail() throws(ArtworkError) -> VipsImage {
    try opened(artwork_vips_open_heif_thumbnail(pointer))
  }

  /// The image one of the opening calls made, owned; their failure (a header libvips refused).
  private func opened(_ image: UnsafeMutablePointer<CVips.VipsImage>?) throws(ArtworkError)
    -> VipsImage
  {
    guard let image else {
      throw Vips.failure(
        .unprocessableImage, "The image header could not be read.",
        call: "vips_image_new_from_source")
    }
    return VipsImage(owning: image, keepAlive: self)
  }

  /// How `thumbnail` fits the picture to its box.
  enum Fit {
    /// Cover the box and crop the overflow around the most interesting part (libvips attention).
    case attentionCrop
    /// Cover the box and crop the overflow evenly on both sides.
    case centreCrop
    /// Scale to exactly the box, distorting the aspect ratio if the box does not match it.
    case stretch

    /// libvips' `crop` (a VipsInteresting) and `size` (a VipsSize) for this fit.
    var options: (crop: Int32, size: Int32) {
      let (crop, size) =
        switch self {
        case .attentionCrop: (VIPS_INTERESTING_ATTENTION, VIPS_SIZE_BOTH)
        case .centreCrop: (VIPS_INTERESTING_CENTRE, VIPS_SIZE_BOTH)
        case .stretch: (VIPS_INTERESTING_NONE, VIPS_SIZE_FORCE)
        }
      return (Int32(crop.rawValue), Int32(size.rawValue))
    }
  }

  /// libvips' thumbnail: decodes the first frame with shrink-on-load (JPEG DCT scaling, WebP and
  /// HEIF scaled decoding), autorotates by EXIF orientation, imports any ICC profile (CMYK
  /// without one through libvips' built-in CMYK profile) and exports sRGB, then scales (up or
  /// down) to `box` per `fit`. Grey stays grey: callers still convert to sRGB.
  func thumbnail(_ box: PixelSize, fit: Fit) throws(ArtworkError) -> VipsImage {
    var out: UnsafeMutablePointer<CVips.VipsImage>?
    let status = artwork_vips_thumbnail(
      pointer, &out, Int32(clamping: box.width), Int32(clamping: box.height), fit.options.crop,
      fit.options.size)
    guard status == 0, let out else {
      throw Vips.failure(
        .unprocessableImage, "The image could not be decoded.", call: "vips_thumbnail_source")
    }
    return VipsImage(owning: out, keepAlive: self)
  }
}
