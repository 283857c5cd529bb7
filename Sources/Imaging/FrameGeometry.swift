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
      return "The image is \(size) pixels, which is over the \(limits.maxPixels)-pixel limit."
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

  /// Why a source cannot be framed to `output`, or nil. The scaled picture that the crop is cut
  /// from must stay within the pixel limit too: a 40000x1 strip framed as a 400px square would
  /// otherwise become a 16-gigapixel intermediate.
  static func framingProblem(source: PixelSize, output: PixelSize, limits: ImageLimits) -> String? {
    let cover = coverSize(source: source, output: output)
    let (pixels, overflow) = cover.width.multipliedReportingOverflow(by: cover.height)
    guard overflow || pixels > limits.maxPixels else { return nil }
    return "The image is \(source) pixels: its aspect ratio is too extreme to frame as \(output)."
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
}
