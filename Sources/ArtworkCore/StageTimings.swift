/// How long each stage of one rendering took on its worker thread, for the per-stage metrics.
public struct StageTimings: Sendable, Equatable {
  /// Reading the header, decoding (at the shrink chosen) and framing to the output size.
  public var decodeFrame: Duration = .zero
  /// Encoding the framed picture (every attempt a size cap needed).
  public var encode: Duration = .zero
  /// Decoding the stored bytes again to 100x100 and computing their ThumbHash.
  public var thumbHash: Duration = .zero

  /// No time yet.
  public init() {}

  /// The time `body` takes, added to `stage`.
  @inline(__always)
  package static func measure<T>(
    _ stage: inout Duration, _ body: () throws(ArtworkError) -> T
  ) throws(ArtworkError) -> T {
    let start = ContinuousClock.now
    defer { stage += ContinuousClock.now - start }
    return try body()
  }
}
