import ArtworkCore

/// The pipeline's arithmetic, as pure functions on integers (tested with tables).
enum FrameGeometry {
  /// Each side of the ThumbHash input is at most this many pixels.
  static let thumbnailSide = 100

  /// Why a source of `size` (from its header, after autorotation) is refused before any pixel is
  /// decoded, or nil when it may be decoded. The sentence is public.
  static func sizeProblem(_ size: PixelSize, limits: ImageLimits) -> String? {
    guard size.width > 0, size.height > 0 else {
      return "The image header declares \(size) pixels: there is nothing to show."
    }
    if max(size.width, size.height) > limits.maxSide {
      return "The image is \(size) pixels: a side over \(limits.maxSide) pixels is not accepted."
    }
    let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
    if overflow || pixels > limits.maxPixels {
      return
        "The image is \(size) pixels, which is over the \(limits.maxPixels)-pixel limit (ARTWORK_MAX_PIXELS)."
    }
    return nil
  }

  /// The size a source is scaled to (up or down, keeping its aspect ratio) so that it covers the
  /// output box; the framing step then crops the overflow away. Sides round up, so the result
  /// always covers the box.
  static func coverSize(source: PixelSize, output: PixelSize) -> PixelSize {
    // Compare the aspect ratios exactly: output.w / source.w against output.h / source.h.
    if output.width * source.height >= output.height * source.width {
      let height = (source.height * output.width + source.width - 1) / source.width
      return PixelSize(width: output.width, height: max(height, output.height))
    }
    let width = (source.width * output.height + source.height - 1) / source.height
    return PixelSize(width: max(width, output.width), height: output.height)
  }

  /// How many times the output's pixels libvips' thumbnail may scale a whole picture to (its
  /// cover size) before the overflow is cropped away: 4, an aspect ratio up to four times
  /// wider or taller than the output's (a 6:1 banner as a square, 8:3 as a poster). Past that,
  /// the picture is cropped first (`cropsBeforeThumbnail`): a 65535x1 strip framed as a 400x600
  /// poster would otherwise be scaled to 39321000x600 pixels before the crop.
  static let thumbnailCoverTimes = 4

  /// Whether framing a source of `size` through libvips' thumbnail crops to the output's aspect
  /// ratio in source pixels first, then scales only the crop: when its cover size is over
  /// `thumbnailCoverTimes` the output's pixels. Pictures nearer the output's shape keep the
  /// thumbnail of the whole (shrink-on-load, libvips' own crop).
  static func cropsBeforeThumbnail(source: PixelSize, output: PixelSize) -> Bool {
    let cover = coverSize(source: source, output: output)
    let (pixels, overflow) = cover.width.multipliedReportingOverflow(by: cover.height)
    return overflow || pixels > output.width * output.height * thumbnailCoverTimes
  }

  /// The size of the ThumbHash input for a picture of `source` size: the picture itself when it
  /// fits in 100x100 (taken pixel for pixel), else scaled down to fit 100x100 keeping its aspect
  /// ratio (the long side becomes 100, the short side rounds to nearest, at least 1).
  static func thumbnailSize(source: PixelSize) -> PixelSize {
    let side = thumbnailSide
    if source.width <= side, source.height <= side { return source }
    if source.width >= source.height {
      let height = (source.height * side * 2 + source.width) / (source.width * 2)
      return PixelSize(width: side, height: max(1, height))
    }
    let width = (source.width * side * 2 + source.height) / (source.height * 2)
    return PixelSize(width: max(1, width), height: side)
  }

  /// How much larger than the cover size a shrunk decode must stay, in tenths: 1.3x. A JPEG
  /// decoded by DCT scaling to barely the output size is softer than a resampled one (SSIM 0.968
  /// against the linear-light reference for a 400px square from 1/4 of a 1744x2000 photo, 0.997
  /// from 1/2); from 1.3x on, every photo of `FramingQualityTests` stays above 0.98.
  static let shrinkMarginTenths = 13

  /// The largest shrink-on-load factor (8, 4, 2 or 1) at which a picture of `source` size still
  /// covers `output` once framed, with `shrinkMarginTenths` to spare: each side decodes to
  /// `ceil(side / shrink)`. Resizing the rest of the way keeps the output exactly the size asked
  /// for.
  static func shrinkOnLoad(source: PixelSize, output: PixelSize) -> Int {
    let cover = coverSize(source: source, output: output)
    for shrink in [8, 4, 2] {
      let width = (source.width + shrink - 1) / shrink
      let height = (source.height + shrink - 1) / shrink
      if width * 10 >= cover.width * shrinkMarginTenths
        && height * 10 >= cover.height * shrinkMarginTenths
      {
        return shrink
      }
    }
    return 1
  }

  /// The margin a JPEG decoded at 2/8 or 1/8 must keep, in tenths: 1.5x. Those inverse DCTs
  /// keep 2x2 and 1x1 of each block's 8x8 coefficients, little more than a box filter
  /// (SSIM 0.983 for a 300px square at 2/8 with 1.45x to spare, 0.967 with 1.09x); from 3/8 on
  /// the scaled decode is sharper than the margin needs (0.988 with 1.09x, 0.993 with 1.25x).
  static let coarseScaleMarginTenths = 15

  /// The smallest libjpeg scale, in eighths (1-8), at which a picture of `source` size still
  /// covers `output` once framed, with `shrinkMarginTenths` to spare (`coarseScaleMarginTenths`
  /// at 1/8 and 2/8): each side decodes to `ceil(side * eighths / 8)`. 8 when none smaller does.
  static func jpegEighths(source: PixelSize, output: PixelSize) -> Int {
    let cover = coverSize(source: source, output: output)
    for eighths in 1..<8 {
      let margin = eighths <= 2 ? coarseScaleMarginTenths : shrinkMarginTenths
      let width = (source.width * eighths + 7) / 8
      let height = (source.height * eighths + 7) / 8
      if width * 10 >= cover.width * margin && height * 10 >= cover.height * margin {
        return eighths
      }
    }
    return 8
  }

  /// How much larger than the cover size an embedded thumbnail must be, in tenths: 3x.
  /// Encoders scale thumbnails with cheap filters (libheif's framed a 400x600 poster from a
  /// 1000x872 thumbnail at SSIM 0.957 with 1.45x to spare, 0.969 with 1.94x); from about 3x on,
  /// what is left of their aliasing is filtered out.
  static let thumbnailMarginTenths = 30

  /// Whether an embedded thumbnail of `size` covers `output` once framed with
  /// `thumbnailMarginTenths` to spare.
  static func thumbnailCovers(_ size: PixelSize, output: PixelSize) -> Bool {
    let cover = coverSize(source: size, output: output)
    return size.width * 10 >= cover.width * thumbnailMarginTenths
      && size.height * 10 >= cover.height * thumbnailMarginTenths
  }

  /// The largest box of the output's aspect ratio inside a picture of `picture` size (the crop
  /// that is then scaled to exactly `output`). Its sides round to nearest and stay inside.
  static func cropSize(in picture: PixelSize, output: PixelSize) -> PixelSize {
    if picture.width * output.height >= picture.height * output.width {
      // Wider than the output: full height, a centre band of the width.
      let width = (picture.height * output.width * 2 + output.height) / (output.height * 2)
      return PixelSize(width: min(picture.width, max(1, width)), height: picture.height)
    }
    let height = (picture.width * output.height * 2 + output.width) / (output.width * 2)
    return PixelSize(width: picture.width, height: min(picture.height, max(1, height)))
  }

  /// The crop's top left corner: centred on `centre` (the picture's middle for a centre crop,
  /// the centre of interest for attention), moved inside the picture.
  static func cropOrigin(_ crop: PixelSize, in picture: PixelSize, centre: (x: Int, y: Int)?)
    -> (x: Int, y: Int)
  {
    let centre = centre ?? (picture.width / 2, picture.height / 2)
    let x = min(max(0, centre.x - crop.width / 2), picture.width - crop.width)
    let y = min(max(0, centre.y - crop.height / 2), picture.height - crop.height)
    return (x, y)
  }
}
