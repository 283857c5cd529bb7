import ArtworkCore

/// The image pipeline: bytes in, framed artwork (or ThumbHash pixels) out.
///
/// Each entry point runs every libvips call for one image synchronously on the calling thread
/// (libvips' per-thread state does not survive an `await`), in a worker process. Each starts
/// libvips if the process has not yet (`Vips.initialize()`; a worker does so at its start).
///
/// Stages, cheapest first (see `ImagePipeline+Stages.swift`): sniff the magic bytes, refuse a
/// variant the decoders do not read (`UnsupportedVariant`) and count a JPEG's scans
/// (`DecodeCost`), read the header only and check dimensions, frame with shrink-on-load, drop
/// opaque alpha, encode within the byte budget, and decode the encoded bytes again for the
/// ThumbHash input.
public enum ImagePipeline {
  /// Frames `input` as `options` ask: exactly `options.outputSize`, cropped per `options.crop`,
  /// first frame only, upright (EXIF orientation), sRGB, no metadata. Sources smaller than the
  /// output are scaled up (the output size is a promise to the client, whatever the source).
  /// Real transparency gives a PNG, anything opaque a JPEG; the result is at most
  /// `limits.maxOutputBytes`. `thumbnail` is decoded from the returned bytes.
  ///
  /// Throws `.unsupportedMediaType` for anything but JPEG, PNG, WebP, GIF, HEIC and AVIF, and
  /// for variants of them the decoders do not read (a 12-bit JPEG: `UnsupportedVariant`),
  /// `.unprocessableImage` for corrupt, truncated or oversized images (a picture any decoder
  /// found damaged is never framed), and `.decoderFailure` when `limits.maxSeconds` ran out.
  public static func render(
    _ input: PinnedBytes, options: ArtworkOptions, limits: ImageLimits = .standard
  ) throws(ArtworkError) -> RenderedArtwork {
    Vips.initialize()
    let deadline = Deadline(secondsFromNow: limits.maxSeconds)
    var timings = StageTimings()
    let output = PixelSize(width: options.outputSize.width, height: options.outputSize.height)
    let (info, flattened, storedFormat) = try StageTimings.measure(&timings.decodeFrame) {
      () throws(ArtworkError) in
      let format = try sniff(input)
      try screen(input, limits: limits)
      let source = try VipsSource(borrowing: boundedMetadata(input, format: format))
      let info = try readHeader(source, format: format, byteCount: input.count, limits: limits)
      let framed = try frame(
        source, info: info, output: output, crop: options.crop, deadline: deadline
      )
      let (flattened, storedFormat) = try dropOpaqueAlpha(framed)
      return (info, flattened, storedFormat)
    }
    let bytes = try StageTimings.measure(&timings.encode) { () throws(ArtworkError) in
      try encode(flattened, as: storedFormat, limits: limits, deadline: deadline)
    }
    let thumbnail = try StageTimings.measure(&timings.thumbHash) { () throws(ArtworkError) in
      let stored = try VipsSource(borrowing: PinnedBytes(copying: bytes))
      // Our own output: its format and size are known, so its header is not read again.
      let storedInfo = SourceInfo(
        format: storedFormat == .png ? .png : .jpeg, width: output.width, height: output.height,
        bytes: bytes.count)
      return try self.thumbnail(stored, info: storedInfo, deadline: deadline)
    }
    return RenderedArtwork(
      bytes: bytes, format: storedFormat, width: output.width, height: output.height,
      hasAlpha: flattened.hasAlpha, thumbnail: thumbnail, source: info, timings: timings)
  }

  /// The ThumbHash input for `input`: pictures of at most 100x100 pixel for pixel, larger ones
  /// scaled down to fit 100x100; first frame, upright, sRGB, RGBA. Same errors as `render`.
  public static func thumbnailPixels(_ input: PinnedBytes, limits: ImageLimits = .standard)
    throws(ArtworkError) -> (source: SourceInfo, pixels: ThumbnailPixels)
  {
    Vips.initialize()
    let deadline = Deadline(secondsFromNow: limits.maxSeconds)
    let format = try sniff(input)
    try screen(input, limits: limits)
    let source = try VipsSource(borrowing: boundedMetadata(input, format: format))
    let info = try readHeader(source, format: format, byteCount: input.count, limits: limits)
    return (info, try thumbnail(source, info: info, deadline: deadline))
  }

  /// `render` of a copy of `input`.
  public static func render(
    _ input: [UInt8], options: ArtworkOptions, limits: ImageLimits = .standard
  ) throws(ArtworkError) -> RenderedArtwork {
    try render(PinnedBytes(copying: input), options: options, limits: limits)
  }

  /// `thumbnailPixels` of a copy of `input`.
  public static func thumbnailPixels(_ input: [UInt8], limits: ImageLimits = .standard)
    throws(ArtworkError) -> (source: SourceInfo, pixels: ThumbnailPixels)
  {
    try thumbnailPixels(PinnedBytes(copying: input), limits: limits)
  }
}

extension ImagePipeline {
  /// The decode floor, for benchmarks: `input` decoded into memory as framing to `options` would
  /// decode it (libjpeg-turbo at the chosen eighths, libwebp scaled, else libvips at the
  /// shrink-on-load or from a HEIF thumbnail), and nothing else: no crop, resize, colour or
  /// encode. Answers the decoded size and its scale in eighths.
  public static func decodeFloor(_ input: PinnedBytes, options: ArtworkOptions)
    throws(ArtworkError) -> (width: Int, height: Int, eighths: Int)
  {
    Vips.initialize()
    let format = try sniff(input)
    let source = try VipsSource(borrowing: input)
    let info = try readHeader(source, format: format, byteCount: input.count, limits: .standard)
    let output = PixelSize(width: options.outputSize.width, height: options.outputSize.height)
    if let decode = scaledDecode(input, info: info, output: output) {
      // As an attention crop decodes it: the whole picture, scaled by its own library.
      _ = try decode.whole()
      return (decode.picture.width, decode.picture.height, decode.eighths)
    }
    let (opened, eighths) = try openForFraming(source, info: info, output: output)
    let image = try opened.copyMemory()
    return (image.width, image.height, eighths)
  }
}
