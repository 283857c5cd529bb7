import ArtworkCore

/// What happened to the workers, for the service's log and metrics: each event once.
public enum WorkerEvent: Sendable {
  /// A worker's input made it fail (it crashed, or used its CPU budget and was killed at the
  /// deadline) or it broke the protocol in the middle of a job; the input is remembered.
  case failed(WorkerFailureReport)
  /// A worker was ended by something other than its input (killed from outside the pool,
  /// stopped, starved of CPU on a busy machine) in the middle of a job; the input is not
  /// remembered, and the job is tried once more.
  case interrupted(WorkerInterruption)
  /// An input remembered as having made a worker fail was refused without another try.
  case refused(DecoderFailure)
  /// A worker was started in place of one that was gone.
  case replaced(pid: Int32)
  /// A worker could not be started in place of one that was gone (tried again at the next job).
  case replacementFailed(String)
}
