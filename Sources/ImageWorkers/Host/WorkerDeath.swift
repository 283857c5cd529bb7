import ArtworkCore

#if canImport(Glibc)
  import Glibc
#endif

/// How a worker ended, and what that is taken to mean.
///
/// The meaning comes from two facts only: the wait status (which signal ended the process, or
/// which exit status it gave) and what the pool itself did to it (its deadline kill, say). What
/// the worker wrote on standard error and the most memory it held are reported, never judged:
/// a worker that ran out of memory cleanly says so in its answer (`JobFailure`), and one that
/// died can no longer say anything typed.
struct WorkerDeath: Sendable, Equatable, CustomStringConvertible {
  /// How the process ended, as its wait status says.
  enum Status: Sendable, Equatable {
    /// Ended by this signal (9 for a kill, 11 for a fault, 6 for an abort, 4 for a Swift trap).
    case signalled(Int32)
    /// Exited with this status (0 when its socket closed, 70 when it refused: `WorkerMain`).
    case exited(Int32)
    /// Not known: the wait failed.
    case unknown
  }

  /// What the pool did to end it.
  enum Kill: Sendable, Equatable {
    /// Nothing: it had ended before the pool reaped it (its own fault, or a signal from outside
    /// the pool: the kernel's OOM killer, an operator's `kill`).
    case none
    /// Killed by the pool at its job's deadline (or its start-up's).
    case deadline
    /// Killed by the pool for breaking the protocol (what it did): an answer too long or
    /// malformed, an output file shorter than its answer said, a socket closed while it lived.
    case protocolError(String)
    /// Killed by the pool when done with it (stopped; or found gone, or not ready, outside a job).
    case cleanup
  }

  /// How the process ended.
  var status: Status
  /// What the pool did to end it.
  var kill: Kill
  /// What the service saw (`it died in the job`, `killed at its deadline`).
  var how: String
  /// The most memory it held, in bytes (the kernel's count): reported, not judged.
  var maxResidentBytes: Int = 0
  /// The last lines it wrote to standard error (a Swift trap's message): reported, not judged.
  var lastWords: String = ""

  /// What the image made the decoder do: `timeout` when the pool's own deadline kill ended it,
  /// `crash` for every other ending (a fault, an abort, a trap, a kill from outside, an exit in
  /// the middle of a job, or an answer no healthy worker sends).
  var reason: DecoderFailure {
    switch (kill, status) {
    case (.deadline, .signalled(SIGKILL)): .timeout
    default: .crash
    }
  }

  var description: String {
    var parts = ["\(reason.rawValue): \(how)"]
    switch kill {
    case .none, .cleanup: break
    case .deadline: parts.append("killed by the pool at its deadline")
    case .protocolError(let what):
      parts.append("killed by the pool: it broke the protocol (\(what))")
    }
    switch status {
    case .signalled(let signal): parts.append("signal \(signal)")
    case .exited(let code): parts.append("exit \(code)")
    case .unknown: parts.append("status unknown")
    }
    parts.append("max RSS \(maxResidentBytes / 1024) KiB")
    if !lastWords.isEmpty { parts.append("stderr: \(lastWords)") }
    return parts.joined(separator: ", ")
  }
}
