import ArtworkCore
internal import CVips
import JPEGEncoding

/// Owns one libvips image (a `VipsImage *` reference) and drops it in `deinit`.
///
/// Each operation returns a new `VipsImage`; libvips images are immutable and lazily computed, so
/// nothing is decoded until pixels are asked for (`copyMemory`, `minimum`, `pixelBytes`, saving).
/// Failures carry the libvips message as `internalDetail` and a public `detail` that the pipeline
/// stages make specific.
final class VipsImage {
  /// The image (read by the other Imaging wrappers, e.g. `VipsPixelReader`).
  let pointer: UnsafeMutablePointer<CVips.VipsImage>
  /// What must outlive this image: the `VipsSource` whose borrowed bytes it may still read.
  private let keepAlive: AnyObject?

  /// Takes over one reference the caller owns. Only the Imaging wrappers (`VipsSource`) call it:
  /// no libvips pointer goes further.
  init(owning pointer: UnsafeMutablePointer<CVips.VipsImage>, keepAlive: AnyObject?) {
    self.pointer = pointer
    self.keepAlive = keepAlive
  }

  deinit { artwork_vips_unref(pointer) }

  /// Width in pixels.
  var width: Int { Int(vips_image_get_width(pointer)) }
  /// Height in pixels (one page: multi-page loads ask for the first page only).
  var height: Int { Int(vips_image_get_height(pointer)) }
  /// Number of bands (samples per pixel).
  var bands: Int { Int(vips_image_get_bands(pointer)) }
  /// Whether the last band is alpha, by libvips' rule (2 bands grey, 4 bands sRGB, ...).
  var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
  /// The EXIF orientation, 1 (upright) to 8.
  var orientation: Int { Int(vips_image_get_orientation(pointer)) }
  /// Whether the EXIF orientation (5...8) swaps width and height on autorotation.
  var orientationSwapsSides: Bool { vips_image_get_orientation_swap(pointer) != 0 }
  /// Whether an ICC profile is attached.
  var hasICCProfile: Bool { artwork_vips_has_icc(pointer) != 0 }
  /// Whether samples are 8-bit unsigned.
  var isUChar: Bool { artwork_vips_is_uchar(pointer) != 0 }
  /// Whether the interpretation is sRGB.
  var isSRGB: Bool { artwork_vips_is_srgb(pointer) != 0 }
  /// Whether the bands have no known meaning ("multiband": a JPEG of components in no colour
  /// space libjpeg knows): `toSRGB` takes the first as grey rather than guess.
  var isMultiband: Bool {
    vips_image_get_interpretation(pointer) == VIPS_INTERPRETATION_MULTIBAND
  }
  /// The loader libvips picked, e.g. `jpegload_source`; nil when the image was not loaded.
  var loader: String? { artwork_vips_loader(pointer).map { String(cString: $0) } }

  /// Runs a libvips operation that writes one output image.
  private func apply(
    _ call: String, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CVips.VipsImage>?>) -> Int32
  ) throws(ArtworkError) -> VipsImage {
    var out: UnsafeMutablePointer<CVips.VipsImage>?
    guard body(&out) == 0, let out else {
      throw Vips.failure(.unprocessableImage, "The image could not be decoded.", call: call)
    }
    return VipsImage(owning: out, keepAlive: keepAlive)
  }

  /// Makes every later computation of this image, and of images made from it, fail once
  /// `deadline` has passed. Returns self, for chaining.
  @discardableResult
  func limited(by deadline: Deadline) -> VipsImage {
    artwork_vips_set_deadline(pointer, deadline.microseconds)
    return self
  }

  /// An 8-bit sRGB image of `bands` bands over a copy of `bytes` (row-major, packed).
  static func srgb(_ bytes: [UInt8], width: Int, height: Int, bands: Int) throws(ArtworkError)
    -> VipsImage
  {
    let made = bytes.withUnsafeBytes {
      artwork_vips_image_from_srgb(
        $0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands))
    }
    guard let made else {
      throw Vips.failure(
        .internal, "The image could not be framed.", call: "vips_image_new_from_memory_copy")
    }
    return VipsImage(owning: made, keepAlive: nil)
  }

  /// An 8-bit image of `bands` bands over a copy of `bytes` (row-major, packed), in `space`;
  /// it takes `described`'s ICC profile and EXIF orientation (a decode by another library of
  /// the picture libvips read the header of).
  static func picture(
    _ bytes: [UInt8], width: Int, height: Int, bands: Int, space: VipsInterpretation,
    describedBy described: VipsImage
  ) throws(ArtworkError) -> VipsImage {
    let made = bytes.withUnsafeBytes {
      artwork_vips_image_from_bytes(
        $0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands),
        Int32(space.rawValue))
    }
    guard let made else {
      throw Vips.failure(
        .internal, "The image could not be decoded.", call: "vips_image_new_from_memory_copy")
    }
    artwork_vips_copy_profile_and_orientation(described.pointer, made)
    return VipsImage(owning: made, keepAlive: nil)
  }

  /// Decodes every pixel into memory once, so the result can be read many times and in any
  /// order (a sequential load can be read only once, top to bottom).
  func copyMemory() throws(ArtworkError) -> VipsImage {
    guard let out = vips_image_copy_memory(pointer) else {
      throw Vips.failure(
        .unprocessableImage, "The image could not be decoded.", call: "vips_image_copy_memory")
    }
    return VipsImage(owning: out, keepAlive: keepAlive)
  }

  /// Turns the pixels upright according to the EXIF orientation and drops the tag.
  func autorotated() throws(ArtworkError) -> VipsImage {
    try apply("vips_autorot") { artwork_vips_autorot(pointer, $0) }
  }

  /// sRGB, 8 bits per sample, three colour bands and the alpha band when there is one: through
  /// the embedded ICC profile when `importingProfile` and there is a usable one, else by
  /// libvips' colourspace rules (grey, 16-bit, CMYK with its built-in profile). Whatever layout
  /// a file declared (two bands, five, a JPEG of components libvips only calls "multiband"),
  /// what comes out is RGB or RGBA (`withRGBBands`).
  ///
  /// NOTE: pass `importingProfile: false` for the output of a libvips thumbnail: it has already
  /// imported the profile and tagged the result with sRGB's; importing again would be wasted work.
  func toSRGB(importingProfile: Bool) throws(ArtworkError) -> VipsImage {
    var image = self
    if importingProfile, hasICCProfile {
      if let imported = try? apply("vips_icc_transform", { artwork_vips_icc_to_srgb(pointer, $0) })
      {
        image = imported
      } else {
        // A broken profile is not worth refusing the picture for: fall back to the
        // interpretation's default conversion, as libvips' own thumbnail does.
        _ = Vips.takeError()
      }
    }
    if !image.isSRGB, !image.isMultiband {
      let source = image
      if let converted = try? source.apply(
        "vips_colourspace", { artwork_vips_colourspace_srgb(source.pointer, $0) })
      {
        image = converted
      } else {
        // No route from what the file declared: its bands are sorted out below.
        _ = Vips.takeError()
      }
    }
    if !image.isUChar {
      if artwork_vips_is_ushort(image.pointer) != 0 {
        // 16-bit samples libvips did not convert: keep their top 8 bits (a cast would clip).
        image = try image.apply("vips_rshift_const") { artwork_vips_rshift(image.pointer, $0, 8) }
      }
      image = try image.apply("vips_cast") { artwork_vips_cast_uchar(image.pointer, $0) }
    }
    return try image.withRGBBands()
  }

  /// The three colour bands alone (an opaque picture whose conversion gave it an alpha band).
  func withoutAlpha() throws(ArtworkError) -> VipsImage {
    guard hasAlpha, bands > 3 else { return self }
    return try bands(0, count: 3)
  }

  /// Three colour bands, then the alpha band if there is one (by libvips' rule: two bands of
  /// grey, four of sRGB, five or more), tagged sRGB. One or two colour bands are taken as grey
  /// (the first band, repeated); more than three keep the first three.
  func withRGBBands() throws(ArtworkError) -> VipsImage {
    let alpha = hasAlpha && bands > 1
    let colourBands = alpha ? bands - 1 : bands
    if colourBands == 3 && isSRGB { return self }
    var rgb: VipsImage
    switch colourBands {
    case 1, 2:
      let grey = try self.bands(0, count: 1)
      rgb = try grey.apply("vips_bandjoin") { artwork_vips_replicate3(grey.pointer, $0) }
    case 3: rgb = alpha ? try self.bands(0, count: 3) : self
    default: rgb = try self.bands(0, count: 3)
    }
    if alpha {
      let alphaBand = try self.bands(bands - 1, count: 1)
      let colour = rgb
      rgb = try colour.apply("vips_bandjoin2") {
        artwork_vips_bandjoin2(colour.pointer, alphaBand.pointer, $0)
      }
    }
    let joined = rgb
    return try joined.apply("vips_copy") { artwork_vips_tag_srgb(joined.pointer, $0) }
  }

  /// Bands `first..<first+count`.
  func bands(_ first: Int, count: Int) throws(ArtworkError) -> VipsImage {
    try apply("vips_extract_band") {
      artwork_vips_extract_band(pointer, $0, Int32(first), Int32(count))
    }
  }

  /// This image with one more band of constant `value` (an opaque alpha: 255).
  func appendingBand(_ value: Double) throws(ArtworkError) -> VipsImage {
    try apply("vips_bandjoin_const1") { artwork_vips_bandjoin_const1(pointer, $0, value) }
  }

  /// The `size` area whose top left corner is `origin`.
  func cropped(x: Int, y: Int, size: PixelSize) throws(ArtworkError) -> VipsImage {
    try apply("vips_extract_area") {
      artwork_vips_extract_area(
        pointer, $0, Int32(x), Int32(y), Int32(size.width), Int32(size.height))
    }
  }

  /// libvips' thumbnail of this image (`VipsSource.thumbnail` without shrink-on-load): the
  /// pixels premultiplied by alpha while scaled (up or down) to `box` per `fit`, any ICC
  /// profile imported and sRGB exported.
  func thumbnail(_ box: PixelSize, fit: VipsSource.Fit) throws(ArtworkError) -> VipsImage {
    try apply("vips_thumbnail_image") {
      artwork_vips_thumbnail_image(
        pointer, $0, Int32(clamping: box.width), Int32(clamping: box.height), fit.options.crop,
        fit.options.size)
    }
  }

  /// Where libvips' attention finds the most interest for a crop of `crop` size (its centre, in
  /// this image's pixels). Reads every pixel once, in order.
  func attentionCentre(crop: PixelSize) throws(ArtworkError) -> (x: Int, y: Int) {
    var x: Int32 = 0
    var y: Int32 = 0
    guard
      artwork_vips_attention_centre(
        pointer, Int32(clamping: crop.width), Int32(clamping: crop.height), &x, &y) == 0
    else {
      throw Vips.failure(
        .unprocessableImage, "The image could not be decoded.", call: "vips_smartcrop")
    }
    return (Int(x), Int(y))
  }

  /// Scales by separate horizontal and vertical factors.
  func resized(horizontal: Double, vertical: Double) throws(ArtworkError) -> VipsImage {
    try apply("vips_resize") { artwork_vips_resize(pointer, $0, horizontal, vertical) }
  }

  /// The smallest sample value over all pixels and bands (decodes the pixels).
  func minimum() throws(ArtworkError) -> Double {
    var value = 0.0
    guard artwork_vips_min(pointer, &value) == 0 else {
      throw Vips.failure(.unprocessableImage, "The image could not be decoded.", call: "vips_min")
    }
    return value
  }

  /// The pixels as packed bytes, row-major (decodes the pixels). Expects 8-bit samples.
  func pixelBytes() throws(ArtworkError) -> [UInt8] {
    var size = 0
    guard let memory = vips_image_write_to_memory(pointer, &size) else {
      throw Vips.failure(
        .unprocessableImage, "The image could not be decoded.", call: "vips_image_write_to_memory")
    }
    defer { artwork_vips_free(memory) }
    return Array(UnsafeRawBufferPointer(start: memory, count: size))
  }

  /// Encodes as JPEG (baseline, optimised coding, metadata stripped). 8-bit sRGB goes to
  /// libjpeg directly (`JPEGEncoder`, libvips' settings without its pipeline); anything else
  /// through libvips' `jpegsave`, which converts it first.
  func jpeg(quality: Int) throws(ArtworkError) -> [UInt8] {
    guard bands == 3, isUChar, isSRGB else { return try libvipsJPEG(quality: quality) }
    let pixels = try pixelBytes()
    do throws(JPEGEncoder.Failure) {
      return try JPEGEncoder.rgb(pixels, width: width, height: height, quality: quality)
    } catch {
      throw ArtworkError(
        .internal, "The image could not be encoded.", internalDetail: "libjpeg: \(error.words)")
    }
  }

  /// Encodes as JPEG through libvips' `jpegsave` (with the settings `JPEGEncoder` copies).
  func libvipsJPEG(quality: Int) throws(ArtworkError) -> [UInt8] {
    try save("vips_jpegsave_buffer") { artwork_vips_jpegsave(pointer, $0, $1, Int32(quality)) }
  }

  /// Encodes as PNG (metadata stripped), as truecolour or, with `palette`, quantised.
  func png(_ palette: PNGPalette?) throws(ArtworkError) -> [UInt8] {
    try save("vips_pngsave_buffer") {
      artwork_vips_pngsave(
        pointer, $0, $1, palette == nil ? 0 : 1, Int32(palette?.quality ?? 100),
        Int32(palette?.bitDepth ?? 8), palette?.dither ?? 0, Int32(palette?.effort ?? 7))
    }
  }

  private func save(
    _ call: String,
    _ body: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
  ) throws(ArtworkError) -> [UInt8] {
    var buffer: UnsafeMutableRawPointer?
    var length = 0
    guard body(&buffer, &length) == 0, let buffer else {
      throw Vips.failure(.internal, "The image could not be encoded.", call: call)
    }
    defer { artwork_vips_free(buffer) }
    return Array(UnsafeRawBufferPointer(start: buffer, count: length))
  }
}
