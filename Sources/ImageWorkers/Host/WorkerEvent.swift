import ArtworkCore

/// What happened to the workers, for the service's log and metrics: each event once.
public enum WorkerEvent: Sendable {
  /// A worker died, was killed at its deadline or broke the protocol in the middle of a job;
  /// the job's input is remembered.
  case failed(WorkerFailureReport)
  /// An input remembered as having made a worker fail was refused without another try.
  case refused(DecoderFailure)
  /// A worker was started in place of one that was gone.
  case replaced(pid: Int32)
  /// A worker could not be started in place of one that was gone (tried again at the next job).
  case replacementFailed(String)
}
