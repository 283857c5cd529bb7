import ArtworkCore

/// Framing through libvips' thumbnail: what pictures with alpha and GIFs take (libvips
/// premultiplies alpha while it scales, so transparent pixels lend no colour to their
/// neighbours).
///
/// A picture near the output's shape is scaled whole, with shrink-on-load, to cover the output,
/// and the overflow cropped (`vips_thumbnail`). A picture whose cover size would pass
/// `FrameGeometry.thumbnailCoverTimes` the output's pixels is cropped to the output's aspect
/// ratio in its own pixels first (the centre, or where libvips' attention finds the most
/// interest), and only the crop is scaled (up or down) to exactly the output: a 65535x1 GIF
/// framed as a 400x600 poster scales one pixel, where scaling the whole would make a
/// 39321000x600 intermediate.
enum ThumbnailFraming {
  /// The upright source framed to exactly `output`, 8-bit sRGB (with its alpha band), in memory.
  static func frame(
    _ source: VipsSource, info: SourceInfo, output: PixelSize, crop: CropMode, deadline: Deadline
  ) throws(ArtworkError) -> VipsImage {
    let size = PixelSize(width: info.width, height: info.height)
    var image =
      FrameGeometry.cropsBeforeThumbnail(source: size, output: output)
      ? try croppedFirst(source, info: info, output: output, crop: crop, deadline: deadline)
      : try source.thumbnail(output, fit: crop == .attention ? .attentionCrop : .centreCrop)
        .limited(by: deadline)
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
  }

  /// The crop of the output's aspect ratio (`FrameGeometry.cropSize`) cut from the upright
  /// picture at full size, then thumbnailed to exactly `output`. An attention crop reads the
  /// picture twice, once to find where (`VipsImage.attentionCentre`) and once to cut, rather
  /// than hold it all in memory: only the rows of the crop are kept.
  private static func croppedFirst(
    _ source: VipsSource, info: SourceInfo, output: PixelSize, crop: CropMode, deadline: Deadline
  ) throws(ArtworkError) -> VipsImage {
    let upright = PixelSize(width: info.width, height: info.height)
    let cropSize = FrameGeometry.cropSize(in: upright, output: output)
    var centre: (x: Int, y: Int)? = nil
    if crop == .attention, cropSize != upright {
      centre = try picture(source, info: info, deadline: deadline).attentionCentre(crop: cropSize)
    }
    let origin = FrameGeometry.cropOrigin(cropSize, in: upright, centre: centre)
    return try picture(source, info: info, deadline: deadline)
      .cropped(x: origin.x, y: origin.y, size: cropSize)
      .thumbnail(output, fit: .stretch)
  }

  /// The first frame of `source`, upright (rows decoded in order, on demand; a picture that
  /// must turn is decoded whole first).
  private static func picture(_ source: VipsSource, info: SourceInfo, deadline: Deadline)
    throws(ArtworkError) -> VipsImage
  {
    let image = try ImagePipeline.open(source, format: info.format).limited(by: deadline)
    guard image.orientation != 1 else { return image }
    return try image.copyMemory().autorotated()
  }
}
