import ArtworkCore

/// What a worker answers for one job. The bytes of a rendering travel in the output file; the
/// rest here.
package enum WorkerAnswer: Sendable, Equatable {
  /// A rendering's facts; its `outputCount` bytes are in the output file.
  case rendered(RenderFacts)
  /// The source's facts and its ThumbHash (the hash's raw bytes).
  case thumbHashed(SourceInfo, hash: [UInt8])
  /// The source's facts from its header.
  case inspected(SourceInfo)
  /// What each attempt of a containment probe met.
  case probed(ContainmentProbe.Report)
  /// The job failed: its code, and the words to pass on.
  case failed(JobFailure)
}
