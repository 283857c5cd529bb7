import ArtworkCore
import PNGMetadata
import Pixels

extension ImagePipeline {
  /// Stage 1: the format, from magic bytes only.
  static func sniff(_ input: PinnedBytes) throws(ArtworkError) -> ImageFormat {
    try ImageFormat.sniffed(prefix: input.prefix(512), count: input.count)
  }

  /// Stage 1, on all the bytes, before any decoder: a variant of the format that the decoders
  /// do not read is a 415 that names it (`UnsupportedVariant`), and a JPEG whose scans would
  /// cost too much to decode a 422 (`DecodeCost`).
  static func screen(_ input: PinnedBytes, limits: ImageLimits) throws(ArtworkError) {
    if let variant = input.withUnsafeBytes({ UnsupportedVariant.find($0) }) {
      throw variant.error
    }
    try DecodeCost.check(input, limits: limits)
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
    return SourceInfo(
      format: format, width: size.width, height: size.height, bytes: byteCount,
      hasAlpha: header.hasAlpha, hasICCProfile: header.hasICCProfile,
      orientation: header.orientation)
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

  /// Stage 3: decode, frame to exactly `output` (cropped per `crop`), sRGB 8-bit, materialised
  /// once: it is read twice (alpha check and encoding). Truncated or corrupt data fails here, and
  /// so does work past `deadline`.
  ///
  /// Opaque stills (JPEG, WebP, PNG, HEIC, AVIF) take the path of least work
  /// (`frameCroppingFirst`); pictures with alpha and GIF go through libvips' thumbnail, which
  /// premultiplies alpha (`ThumbnailFraming`). HEIF starts from its embedded thumbnail only when
  /// that is three times the output's size (`openForFraming`); phones' are 320-512 px, so
  /// usually from the picture. Every path cuts the crop in the source's pixels before scaling
  /// it (up or down) to the output, or scales the whole only when that is at most a few times
  /// the output's size: no aspect ratio is too extreme to frame, and no intermediate grows
  /// with it (a 65535x1 strip frames from one pixel).
  static func frame(
    _ source: VipsSource, info: SourceInfo, output: PixelSize, crop: CropMode,
    deadline: Deadline
  ) throws(ArtworkError) -> VipsImage {
    try framed(source, info: info, output: output, crop: crop, deadline: deadline)
      .image
  }

  /// `frame`, with the region of the upright source it shows (for the quality tests).
  static func framed(
    _ source: VipsSource, info: SourceInfo, output: PixelSize, crop: CropMode,
    deadline: Deadline
  ) throws(ArtworkError) -> FramedPicture {
    do {
      // Every JPEG takes this path (libjpeg decodes its pixels, whatever its layout).
      if info.format == .jpeg || (info.format != .gif && !info.hasAlpha) {
        return try frameCroppingFirst(
          source, info: info, output: output, crop: crop, deadline: deadline)
      }
      return FramedPicture(
        image: try ThumbnailFraming.frame(
          source, info: info, output: output, crop: crop, deadline: deadline),
        region: nil)
    } catch  where error.kind == .unprocessableImage {
      throw decodeFailure(error, info: info, deadline: deadline)
    }
  }

  /// The least work for the same picture: decode at the largest shrink-on-load that keeps a
  /// margin over the output (JPEG DCT scaling, WebP scaled decoding), decide the crop on that
  /// (for attention, on a small preview of it), and resample only the crop, in linear light, to
  /// exactly the output (`LinearLightResampler`). A centre crop streams from the decoder to the
  /// resampler, a strip of rows at a time; colour management runs on the crop's pixels only.
  private static func frameCroppingFirst(
    _ source: VipsSource, info: SourceInfo, output: PixelSize, crop: CropMode, deadline: Deadline
  ) throws(ArtworkError) -> FramedPicture {
    if let decode = scaledDecode(source.bytes, info: info, output: output) {
      do {
        return try frame(decode, output: output, crop: crop, deadline: deadline)
      } catch  where error.kind == .internal && !deadline.hasPassed {
        // The library could not take this picture (a layout it does not decode, a rectangle
        // it refused): libvips decodes it below. Damaged data is a 422 at once, never decoded
        // again (a second decoder would only paper over the damage), and so is time run out.
      }
    }
    let sourceSize = PixelSize(width: info.width, height: info.height)
    let (opened, eighths) = try openForFraming(source, info: info, output: output)
    var decoded = opened.limited(by: deadline)
    if decoded.orientation != 1 {
      // Turning needs the pixels in any order; a load reads them once, top to bottom.
      decoded = try decoded.copyMemory().autorotated()
    }
    let picture = PixelSize(width: decoded.width, height: decoded.height)
    let cropSize = FrameGeometry.cropSize(in: picture, output: output)
    let origin: (x: Int, y: Int)
    let pixels: VipsImage
    let read: (x: Int, y: Int)
    if crop == .attention, cropSize != picture {
      // The whole picture in memory, in sRGB: the preview and the crop both read it.
      pixels = try decoded.toSRGB(importingProfile: true).withoutAlpha().copyMemory()
      origin = try attentionOrigin(pixels, crop: cropSize)
      read = origin
    } else {
      origin = FrameGeometry.cropOrigin(cropSize, in: picture, centre: nil)
      pixels = try decoded.cropped(x: origin.x, y: origin.y, size: cropSize)
        .toSRGB(importingProfile: true).withoutAlpha()
      read = (0, 0)
    }
    let image = try resampled(
      pixels, x: read.x, y: read.y, size: cropSize, to: output,
      deadline: deadline)
    // The region in the upright source's pixels.
    let toSource = (
      Double(sourceSize.width) / Double(picture.width),
      Double(sourceSize.height) / Double(picture.height)
    )
    let region = FramedPicture.Region(
      x: Double(origin.x) * toSource.0, y: Double(origin.y) * toSource.1,
      width: Double(cropSize.width) * toSource.0, height: Double(cropSize.height) * toSource.1)
    return FramedPicture(image: image, region: region, eighths: eighths)
  }

  /// The `size` rectangle at (`x`, `y`) of an 8-bit sRGB picture, resampled in linear light to
  /// exactly `output` (an image in memory). The picture's rows are read once, top to bottom.
  static func resampled(
    _ picture: VipsImage, x: Int, y: Int, size: PixelSize, to output: PixelSize,
    deadline: Deadline
  ) throws(ArtworkError) -> VipsImage {
    let layout = try pixelLayout(picture)
    let reader = try VipsPixelReader(picture)
    let resampler = LinearLightResampler(
      source: (size.width, size.height), output: (output.width, output.height))
    let bytes = try resampler.resample(layout: layout) {
      (top, count) throws(ArtworkError) in
      if deadline.hasPassed { throw deadline.error }
      return try reader.rows(left: x, top: y + top, width: size.width, count: count)
    }
    return try VipsImage.srgb(bytes, width: output.width, height: output.height, bands: 3)
  }

  /// Where a crop of `crop` size of `picture` (8-bit sRGB, in memory) shows the most interest
  /// (`AttentionWindow`), decided on a preview at most `previewSide` pixels long.
  static func attentionOrigin(_ picture: VipsImage, crop: PixelSize) throws(ArtworkError) -> (
    x: Int, y: Int
  ) {
    let whole = PixelSize(width: picture.width, height: picture.height)
    let layout = try pixelLayout(picture)
    let reader = try VipsPixelReader(picture)
    let rows = try reader.rows(left: 0, top: 0, width: whole.width, count: whole.height)
    // The pixels belong to the reader's region: it must live until they are read.
    return withExtendedLifetime(reader) {
      attentionOrigin(
        rows.pixels, size: whole, layout: layout, rowBytes: rows.rowBytes, crop: crop)
    }
  }

  /// How the pixel code reads `picture` (8-bit sRGB, 1 or 3 bands, as `toSRGB` leaves an opaque
  /// picture); any other layout is the service's error, refused rather than misread.
  static func pixelLayout(_ picture: VipsImage) throws(ArtworkError) -> PixelLayout {
    guard picture.isUChar, let layout = PixelLayout(channels: picture.bands) else {
      throw ArtworkError(
        .internal, "The image could not be framed.",
        internalDetail: "\(picture.bands) bands after the sRGB conversion")
    }
    return layout
  }

  /// `attentionOrigin` of a picture of `size` in memory (8-bit sRGB, laid out as `layout`).
  static func attentionOrigin(
    _ pixels: UnsafePointer<UInt8>, size whole: PixelSize, layout: PixelLayout, rowBytes: Int,
    crop: PixelSize
  ) -> (x: Int, y: Int) {
    let preview = LinearPreview(
      pixels: pixels, width: whole.width, height: whole.height, layout: layout,
      rowBytes: rowBytes, longSide: previewSide)
    let factor = Double(preview.factor)
    let window = (
      width: Int((Double(crop.width) / factor).rounded()),
      height: Int((Double(crop.height) / factor).rounded())
    )
    let corner = AttentionWindow.origin(in: preview, window: window)
    let centre = (
      x: Int(((Double(corner.x) + Double(window.width) / 2) * factor).rounded()),
      y: Int(((Double(corner.y) + Double(window.height) / 2) * factor).rounded())
    )
    return FrameGeometry.cropOrigin(crop, in: whole, centre: centre)
  }

  /// The picture framing starts from: a JPEG decoded whole by libjpeg at the smallest scale of
  /// eighths that keeps the margin (`jpegPicture`); a WebP lazily at `shrinkOnLoad`; a HEIC or
  /// AVIF's embedded thumbnail when it covers the output three times over
  /// (`FrameGeometry.thumbnailCovers`), else the primary image; the others whole. Answers the
  /// scale of the decode too, in eighths (8 for a thumbnail).
  static func openForFraming(_ source: VipsSource, info: SourceInfo, output: PixelSize)
    throws(ArtworkError) -> (image: VipsImage, eighths: Int)
  {
    if info.format == .jpeg {
      let eighths = FrameGeometry.jpegEighths(
        source: PixelSize(width: info.width, height: info.height), output: output)
      return (try jpegPicture(source, eighths: eighths), eighths)
    }
    if info.format == .heic || info.format == .avif,
      let thumbnail = try? source.openHEIFThumbnail(),
      thumbnail.width * thumbnail.height < info.width * info.height,
      FrameGeometry.thumbnailCovers(
        PixelSize(width: thumbnail.width, height: thumbnail.height), output: output)
    {
      return (thumbnail, 8)
    }
    let shrink = shrinkOnLoad(info, output: output)
    return (try source.open(format: info.format, shrink: shrink), 8 / shrink)
  }

  /// The shrink-on-load factor for framing `info` to `output`: the largest that keeps a margin
  /// (`FrameGeometry.shrinkOnLoad`) for the formats that decode scaled (JPEG, WebP); 1 for the
  /// others.
  static func shrinkOnLoad(_ info: SourceInfo, output: PixelSize) -> Int {
    guard [.jpeg, .webp].contains(info.format) else { return 1 }
    return FrameGeometry.shrinkOnLoad(
      source: PixelSize(width: info.width, height: info.height), output: output)
  }

  /// The longest side of the preview the attention decision is made on, at most: it judges
  /// detail at the scale of objects. On a 160 px preview the grain of a wooden table outscored
  /// the cup standing on it (`AttentionCropTests`).
  static let previewSide = 48

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
    if target != sourceSize, let decode = scaledDecode(source.bytes, info: info, output: target) {
      // The whole picture, stretched to exactly the target like libvips' thumbnail below
      // (the aspect ratio moves by under a pixel), in linear light like every framed picture.
      // Damaged data is a 422; a picture the library does not take goes to libvips.
      do throws(ArtworkError) {
        let pixels = try decode.whole()
        if deadline.hasPassed { throw deadline.error }
        return scaledThumbnail(pixels, size: decode.picture, to: target)
      } catch  where error.kind == .internal && !deadline.hasPassed {}
    }
    do {
      let image: VipsImage
      if info.format == .jpeg {
        // libjpeg decodes (at the smallest eighths that covers the target), libvips turns,
        // imports the profile and scales to exactly the target.
        let eighths = FrameGeometry.jpegEighths(source: sourceSize, output: target)
        let picture = try jpegPicture(source, eighths: eighths).limited(by: deadline)
          .autorotated().toSRGB(importingProfile: true)
        image =
          picture.width == target.width && picture.height == target.height
          ? picture
          : try picture.resized(
            horizontal: Double(target.width) / Double(picture.width),
            vertical: Double(target.height) / Double(picture.height))
      } else if target == sourceSize {
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

  /// A packed RGB picture of `size`, resampled to `target` as RGBA (opaque).
  private static func scaledThumbnail(_ pixels: [UInt8], size: PixelSize, to target: PixelSize)
    -> ThumbnailPixels
  {
    let resampler = LinearLightResampler(
      source: (size.width, size.height), output: (target.width, target.height))
    let rgb = resampled(pixels, rowPixels: size.width, by: resampler)
    var rgba = [UInt8](repeating: 255, count: target.width * target.height * 4)
    for index in 0..<target.width * target.height {
      rgba[index * 4] = rgb[index * 3]
      rgba[index * 4 + 1] = rgb[index * 3 + 1]
      rgba[index * 4 + 2] = rgb[index * 3 + 2]
    }
    return ThumbnailPixels(width: target.width, height: target.height, rgba: rgba)
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

extension ImagePipeline {
  /// `input` with its compressed metadata within bounds (`PNGMetadataFilter`: a PNG's text
  /// dropped, an ICC profile that inflates past 4 MiB dropped); other formats as they are.
  static func boundedMetadata(_ input: PinnedBytes, format: ImageFormat) -> PinnedBytes {
    format == .png ? PNGMetadataFilter.filtered(input) : input
  }
}
