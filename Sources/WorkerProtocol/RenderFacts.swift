import ArtworkCore

/// What a rendering was, beside its bytes.
package struct RenderFacts: Sendable, Equatable {
  /// How many bytes of the output file it took.
  package var outputCount: Int
  package var format: StoredFormat
  package var width: Int
  package var height: Int
  package var source: SourceInfo
  package var timings: StageTimings
  /// The ThumbHash of the stored bytes, raw.
  package var hash: [UInt8]

  package init(
    outputCount: Int, format: StoredFormat, width: Int, height: Int, source: SourceInfo,
    timings: StageTimings, hash: [UInt8]
  ) {
    self.outputCount = outputCount
    self.format = format
    self.width = width
    self.height = height
    self.source = source
    self.timings = timings
    self.hash = hash
  }
}
