import ArtworkCore

/// One rendered artwork: the bytes to store and what the response says about them.
public struct RenderedArtwork: Sendable {
  /// The encoded image, at most `ImageLimits.maxOutputBytes`, with no metadata.
  public var bytes: [UInt8]
  /// PNG when any pixel is not fully opaque, JPEG otherwise.
  public var format: StoredFormat
  /// Exactly `ArtworkOptions.outputSize.width`.
  public var width: Int
  /// Exactly `ArtworkOptions.outputSize.height`.
  public var height: Int
  /// Whether the stored image has an alpha channel (only PNGs do).
  package var hasAlpha: Bool
  /// The stored bytes decoded again and fitted to 100×100: the ThumbHash input.
  package var thumbnail: ThumbnailPixels
  /// The source as it was read.
  public var source: SourceInfo
  /// How long each stage took (the ThumbHash's own computation is added by the processor).
  public var timings: StageTimings
}
