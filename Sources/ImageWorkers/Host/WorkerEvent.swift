import ArtworkCore

/// What happened to the workers, for the service's log and metrics: each event once.
public enum WorkerEvent: Sendable {
  /// A worker died or was killed in the middle of a job; the job's input is remembered.
  case failed(WorkerFailureReport)
  /// An input remembered as having made a worker fail was refused without another try.
  case refused(DecoderFailure)
  /// A worker was started in place of one that was gone.
  case replaced(pid: Int32)
  /// A worker could not be started in place of one that was gone (tried again at the next job).
  case replacementFailed(String)
}

/// One worker's failure: what it was doing and how it ended.
public struct WorkerFailureReport: Sendable {
  /// What the image made the decoder do.
  public var reason: DecoderFailure
  /// The job (`render`, `thumbhash`, `inspect`).
  public var job: String
  /// The SHA-256 of the input, hex, and its size.
  public var inputSHA256: String
  public var inputBytes: Int
  /// The worker's process id, and how it ended (signal, exit status, memory, last words).
  public var pid: Int32
  public var details: String
}
