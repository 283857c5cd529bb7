import ArtworkCore
import Imaging

/// One job for a worker process: what to do with the input bytes it finds in its input file.
public enum WorkerJob: Sendable, Equatable {
  /// Frame, encode and hash, as `POST /v1/artwork` does (`ImagePipeline.render`).
  case render(ArtworkOptions)
  /// The ThumbHash of the source itself (`ImagePipeline.thumbnailPixels`).
  case thumbHash
  /// The format and upright size from the header alone (`/v1/check`'s format rule).
  case inspect
  /// Tries what a locked-down worker must not be able to do, and reports each refusal
  /// (`ContainmentProbe`): how the tests observe the containment from outside.
  case probe(ContainmentProbe.Targets)

  /// The name in logs and metrics.
  var name: String {
    switch self {
    case .render: "render"
    case .thumbHash: "thumbhash"
    case .inspect: "inspect"
    case .probe: "probe"
    }
  }
}

/// What a worker answers for one job. The bytes of a rendering travel in the output file; the
/// rest here.
enum WorkerAnswer: Sendable, Equatable {
  /// A rendering's facts; its `outputCount` bytes are in the output file.
  case rendered(RenderFacts)
  /// The source's facts and its ThumbHash (the hash's raw bytes).
  case thumbHashed(SourceInfo, hash: [UInt8])
  /// The source's facts from its header.
  case inspected(SourceInfo)
  /// What each attempt of a containment probe met.
  case probed(ContainmentProbe.Report)
  /// The job failed the way a request fails: the problem to answer.
  case failed(ArtworkError)
}

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
