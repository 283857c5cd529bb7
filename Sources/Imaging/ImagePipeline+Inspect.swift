import ArtworkCore

extension ImagePipeline {
  /// Format and upright dimensions from the magic bytes and the header alone (no pixel decoded),
  /// whatever the size: for reporting, not for deciding to decode.
  public static func inspect(_ input: PinnedBytes) throws(ArtworkError) -> SourceInfo {
    Vips.initialize()
    let format = try sniff(input)
    let source = try VipsSource(borrowing: input)
    var limits = ImageLimits.pixels(.max)
    limits.maxSide = .max
    return try readHeader(source, format: format, byteCount: input.count, limits: limits)
  }
}

extension ImagePipeline {
  /// `inspect` of a copy of `input`.
  public static func inspect(_ input: [UInt8]) throws(ArtworkError) -> SourceInfo {
    try inspect(PinnedBytes(copying: input))
  }

  /// Stage 1 (`sniff`) on an array.
  static func sniff(_ input: [UInt8]) throws(ArtworkError) -> ImageFormat {
    try ImageFormat.sniffed(prefix: Array(input.prefix(512)), count: input.count)
  }
}
