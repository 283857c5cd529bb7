import ArtworkCore
import Imaging

/// What a rendering was, beside its bytes.
struct RenderFacts: Sendable, Equatable {
  /// How many bytes of the output file it took.
  var outputCount: Int
  var format: StoredFormat
  var width: Int
  var height: Int
  var source: SourceInfo
  var timings: StageTimings
  /// The ThumbHash of the stored bytes, raw.
  var hash: [UInt8]
}
