import ArtworkCore

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
  package var name: String {
    switch self {
    case .render: "render"
    case .thumbHash: "thumbhash"
    case .inspect: "inspect"
    case .probe: "probe"
    }
  }
}
