/// A job whose worker was ended by something other than its input: the input is not blamed
/// (nor remembered), and the job is tried once more.
public struct WorkerInterruption: Sendable {
  /// What ended the job.
  public enum Cause: String, Sendable, Equatable, CaseIterable {
    /// Its worker was ended by a signal the pool did not send and the worker's own code does
    /// not raise (SIGKILL from the kernel's OOM killer or an operator, SIGTERM...).
    case killed
    /// Its worker ran out of time having had little CPU time: it was stopped (SIGSTOP), or the
    /// machine was too busy to run it.
    case starved
  }

  public var cause: Cause
  /// The job (`render`, `thumbhash`, `inspect`).
  public var job: String
  /// The SHA-256 of the input, hex, and its size.
  public var inputSHA256: String
  public var inputBytes: Int
  /// The worker's process id, and how it ended (its signal or exit status, what the pool did,
  /// the CPU time it had).
  public var pid: Int32
  public var details: String
  /// Whether the job is tried again (false: this was the second try, and the caller is
  /// answered 503).
  public var retried: Bool
}
