/// What decoding a source will cost, bounded before any decoder sees it: a JPEG's scans, each
/// one a pass of libjpeg over the whole picture, are counted from its markers (`JPEGScans`).
/// Pure Swift on the bytes: the service checks it before a worker is used
/// (`ArtworkProcessor.validate`), and the worker again before it decodes (what the fuzz target
/// reaches).
public enum DecodeCost {
  /// Refuses a JPEG of more than `limits.maxScans` scans, or whose scans would pass over more
  /// than `limits.maxScanPasses` × `limits.maxPixels` pixels in all, with a 422 that names the
  /// limit. Other formats, and JPEGs whose markers say nothing, pass: the decoder judges them.
  public static func check(_ input: PinnedBytes, limits: ImageLimits) throws(ArtworkError) {
    if let problem = input.withUnsafeBytes({ problem($0, limits: limits) }) {
      throw ArtworkError(.unprocessableImage, problem)
    }
  }

  /// The sentence `check` refuses `bytes` with, or nil when they pass.
  public static func problem(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) -> String? {
    JPEGScans.read(bytes).flatMap { problem($0, limits: limits) }
  }

  /// The sentence that refuses `scans`, or nil when they are within `limits`.
  static func problem(_ scans: JPEGScans, limits: ImageLimits) -> String? {
    let kind = scans.isProgressive ? "a progressive JPEG" : "a JPEG"
    if scans.count > limits.maxScans {
      return
        "The image is \(kind) of \(ByteCount.grouped(scans.count)) scans; at most "
        + "\(limits.maxScans) are decoded."
    }
    let budget = limits.maxScanPasses.multipliedReportingOverflow(by: limits.maxPixels)
    let (pixels, overflow) = scans.width.multipliedReportingOverflow(by: scans.height)
    let (passes, passesOverflow) = pixels.multipliedReportingOverflow(by: scans.count)
    guard budget.overflow == false, overflow || passesOverflow || passes > budget.partialValue
    else { return nil }
    return
      "The image is \(kind) of \(scans.width)x\(scans.height) pixels in \(scans.count) scans, "
      + "\(overflow || passesOverflow ? "too many" : ByteCount.grouped(passes)) pixels to "
      + "decode in all; at most \(ByteCount.grouped(budget.partialValue)) are decoded "
      + "(\(limits.maxScanPasses) passes over the \(ByteCount.grouped(limits.maxPixels))-pixel "
      + "limit, ARTWORK_MAX_PIXELS)."
  }
}
