import ArtworkCore

/// One worker's failure: what it was doing and how it ended.
public struct WorkerFailureReport: Sendable {
  /// What the image made the decoder do: `timeout` when the pool killed its worker at the
  /// deadline after it used its CPU budget, `crash` for a fault of its own code, an exit or a
  /// broken protocol (`WorkerDeath.verdict`).
  public var reason: DecoderFailure
  /// The job (`render`, `thumbhash`, `inspect`).
  public var job: String
  /// The SHA-256 of the input, hex, and its size.
  public var inputSHA256: String
  public var inputBytes: Int
  /// The worker's process id, and how it ended (what the pool did, its signal or exit status;
  /// its CPU time; its peak memory and last words, reported but never judged).
  public var pid: Int32
  public var details: String
}
