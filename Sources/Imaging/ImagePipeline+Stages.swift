import ArtworkCore

extension ImagePipeline {
  /// Stage 1: the format, from magic bytes only.
  static func sniff(_ input: [UInt8]) throws(ArtworkError) -> ImageFormat {
    try sniff(input[...])
  }

  /// Stage 1 on a slice: only its first bytes are looked at (copied: a few hundred bytes).
  static func sniff(_ input: ArraySlice<UInt8>) throws(ArtworkError) -> ImageFormat {
    guard !input.isEmpty else {
      throw ArtworkError(.unprocessableImage, "The image is empty (zero bytes).")
    }
    guard let format = ImageFormat.sniff(Array(input.prefix(512))) else {
      throw ArtworkError(
        .unsupportedMediaType,
        "The data is not a JPEG, PNG, WebP, GIF, HEIC or AVIF image (judged by its first bytes).")
    }
    return format
  }

  /// Stage 2: the header only (no pixel is decoded), checked against the limits. The size is
  /// reported after autorotation. libvips must agree with the sniffed format.
  static func readHeader(
    _ source: VipsSource, format: ImageFormat, byteCount: Int, limits: ImageLimits
  ) throws(ArtworkError) -> SourceInfo {
    let header = try open(source, format: format)
    var size = PixelSize(width: header.width, height: header.height)
    if header.orientationSwapsSides { size = PixelSize(width: size.height, height: size.width) }
    if let problem = FrameGeometry.sizeProblem(size, limits: limits) {
      throw ArtworkError(.unprocessableImage, problem)
    }
    return SourceInfo(format: format, width: size.width, height: size.height, bytes: byteCount)
  }

  /// The lazily loading image of `source` (header parsed, no pixel decoded), its loader checked
  /// against the sniffed format.
  static func open(_ source: VipsSource, format: ImageFormat) throws(ArtworkError) -> VipsImage {
    let image: VipsImage
    do {
      image = try source.open()
    } catch {
      throw ArtworkError(
        .unprocessableImage,
        "The \(format.rawValue.uppercased()) image's header is corrupt or incomplete.",
        internalDetail: error.internalDetail)
    }
    let loader = image.loader ?? "none"
    guard loader.hasPrefix(expectedLoader(format)) else {
      throw ArtworkError(
        .unprocessableImage,
        "The data starts like a \(format.rawValue.uppercased()) image but is not one.",
        internalDetail: "libvips chose \(loader)")
    }
    return image
  }

  private static func expectedLoader(_ format: ImageFormat) -> String {
    switch format {
    case .jpeg: "jpegload"
    case .png: "pngload"
    case .webp: "webpload"
    case .gif: "gifload"
    case .heic, .avif: "heifload"
    }
  }

  /// Stage 3: decode with shrink-on-load (first frame, autorotated, sRGB 8-bit) straight to the
  /// output box, cropped per `crop`, and materialise it once: it is read twice (alpha check and
  /// encoding). Truncated or corrupt data fails here, and so does work past `deadline`.
  static func frame(
    _ source: VipsSource, info: SourceInfo, output: PixelSize, crop: CropMode,
    limits: ImageLimits, deadline: Deadline
  ) throws(ArtworkError) -> VipsImage {
    let sourceSize = PixelSize(width: info.width, height: info.height)
    if let problem = FrameGeometry.framingProblem(
      source: sourceSize, output: output, limits: limits)
    {
      throw ArtworkError(.unprocessableImage, problem)
    }
    do {
      var image = try source.thumbnail(
        output, fit: crop == .attention ? .attentionCrop : .centreCrop
      ).limited(by: deadline)
      image = try image.toSRGB(importingProfile: false).copyMemory()
      if image.width != output.width || image.height != output.height {
        // NOTE: libvips' crop is exact for every size tried, but the output size is a promise:
        // correct a rounding slip of a pixel rather than break it.
        image = try image.resized(
          horizontal: Double(output.width) / Double(image.width),
          vertical: Double(output.height) / Double(image.height)
        ).copyMemory()
      }
      return image
    } catch  where error.kind == .unprocessableImage {
      throw decodeFailure(error, info: info, deadline: deadline)
    }
  }

  /// Stage 4: keep alpha only when some pixel is not fully opaque (then the output is PNG);
  /// otherwise drop the alpha band and encode JPEG.
  static func dropOpaqueAlpha(_ image: VipsImage) throws(ArtworkError) -> (
    VipsImage, StoredFormat
  ) {
    guard image.hasAlpha else { return (image, .jpeg) }
    let alpha = try image.bands(image.bands - 1, count: 1)
    if try alpha.minimum() < 255 { return (image, .png) }
    return (try image.bands(0, count: image.bands - 1), .jpeg)
  }

  /// Stage 5: the first encoding in `EncodePlan` that fits `limits.maxOutputBytes`, skipping
  /// rungs that the previous size says cannot fit; the last rung is always tried.
  static func encode(
    _ image: VipsImage, as format: StoredFormat, limits: ImageLimits, deadline: Deadline
  ) throws(ArtworkError) -> [UInt8] {
    let attempts = EncodePlan.attempts(for: format)
    var tried: [(EncodeAttempt, Int)] = []
    for (index, attempt) in attempts.enumerated() {
      if let (previous, size) = tried.last, index < attempts.count - 1,
        !EncodePlan.worthTrying(
          attempt, after: previous, previousBytes: size, limit: limits.maxOutputBytes)
      {
        continue
      }
      if deadline.hasPassed { throw deadline.error }
      let bytes =
        switch attempt {
        case .jpeg(let quality): try image.jpeg(quality: quality)
        case .png(let palette): try image.png(palette)
        }
      if bytes.count <= limits.maxOutputBytes { return bytes }
      tried.append((attempt, bytes.count))
    }
    throw ArtworkError(
      .internal, "The image could not be encoded within the size limit.",
      internalDetail:
        "\(format) attempts gave \(tried.map(\.1)) bytes, limit \(limits.maxOutputBytes)")
  }

  /// Stage 6: the ThumbHash input, RGBA fitted to 100x100. Pictures that already fit are taken
  /// pixel for pixel (no resampling, so no premultiplication round trip either).
  static func thumbnail(_ source: VipsSource, info: SourceInfo, deadline: Deadline)
    throws(ArtworkError) -> ThumbnailPixels
  {
    let sourceSize = PixelSize(width: info.width, height: info.height)
    let target = FrameGeometry.thumbnailSize(source: sourceSize)
    do {
      let image: VipsImage
      if target == sourceSize {
        image = try open(source, format: info.format).limited(by: deadline).copyMemory()
          .autorotated()
          .toSRGB(importingProfile: true)
      } else {
        // FORCE: exactly the computed size (the aspect ratio moves by under a pixel).
        image = try source.thumbnail(target, fit: .stretch).limited(by: deadline)
          .toSRGB(importingProfile: false)
      }
      let rgba = try DecodedImage(image, forceAlpha: true)
      return ThumbnailPixels(width: rgba.width, height: rgba.height, rgba: rgba.pixels)
    } catch  where error.kind == .unprocessableImage {
      throw decodeFailure(error, info: info, deadline: deadline)
    }
  }

  /// What a failure to decode pixels means to the client: the time limit when it was spent,
  /// otherwise a truncated or corrupt image (libvips' words stay in the internal detail).
  private static func decodeFailure(_ error: ArtworkError, info: SourceInfo, deadline: Deadline)
    -> ArtworkError
  {
    if deadline.hasPassed { return deadline.error }
    return ArtworkError(
      .unprocessableImage,
      "The \(info.format.rawValue.uppercased()) image is truncated or corrupt: "
        + "its pixels could not be decoded.",
      internalDetail: error.internalDetail)
  }
}
