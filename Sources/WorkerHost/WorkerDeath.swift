import ArtworkCore

#if canImport(Glibc)
  import Glibc
#endif

/// How a worker ended, and whom that blames: its input, or something outside it.
///
/// The verdict comes from three facts only: the wait status (which signal ended the process,
/// or which exit status it gave), what the pool itself did to it (its deadline kill, say), and
/// the CPU time the worker used in the job (the kernel's count, from `wait4`). What the worker
/// wrote on standard error and the most memory it held are reported, never judged: a worker
/// that ran out of memory cleanly says so in its answer (`JobFailure`), and one that died can
/// no longer say anything typed.
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

  /// Whom a death blames.
  enum Verdict: Sendable, Equatable {
    /// The input made its worker fail (`crash` or `timeout`): it is remembered, and answered
    /// with a `decoder-failure` of this reason.
    case input(DecoderFailure)
    /// Something outside the input ended the job: it is tried once more, in a new worker, and
    /// not remembered.
    case outside(WorkerInterruption.Cause)
  }

  /// The signals a process gets from its own code: a fault (SEGV, BUS), an illegal or trapping
  /// instruction (ILL, TRAP: a Swift trap), an arithmetic fault (FPE), an abort (ABRT: an
  /// assertion, glibc's heap checks), and a system call the seccomp filter kills for (SYS).
  /// Any other signal the pool did not send came from outside the worker.
  static let ownSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]

  /// The share of a job's time limit a worker must have spent on the CPU for a deadline to be
  /// the input's: a worker that was stopped (SIGSTOP), or starved on a machine busy enough to
  /// give it less than half a core, says nothing about its image by running out of time.
  static let blamedCPUShare = 0.5

  /// How the process ended.
  var status: Status
  /// What the pool did to end it.
  var kill: Kill
  /// What the service saw (`it died in the job`, `killed at its deadline`).
  var how: String
  /// The most memory it held, in bytes (the kernel's count): reported, not judged.
  var maxResidentBytes: Int = 0
  /// The CPU time it used in its last job, in seconds (user and system, every thread).
  var cpuSeconds: Double = 0
  /// The last lines it wrote to standard error (a Swift trap's message): reported, not judged.
  var lastWords: String = ""

  /// Whom the death blames, for a job whose time limit was `timeout`:
  /// - the pool's deadline kill blames the input (`timeout`) when the worker spent at least
  ///   `blamedCPUShare` of `timeout` on the CPU, and is `starved` otherwise;
  /// - a signal of the worker's own code (`ownSignals`), an exit in the middle of a job, or an
  ///   answer out of protocol blames the input (`crash`): the worker is the same for every
  ///   job, its input is what changed;
  /// - any other signal came from outside the pool (`killed`: the kernel's OOM killer, an
  ///   operator), as does a death whose status was lost (something else reaped it).
  func verdict(timeout: Duration) -> Verdict {
    switch (kill, status) {
    case (.deadline, .signalled(SIGKILL)):
      cpuSeconds >= timeout.seconds * Self.blamedCPUShare ? .input(.timeout) : .outside(.starved)
    case (.protocolError, _): .input(.crash)
    case (_, .signalled(let signal)):
      Self.ownSignals.contains(signal) ? .input(.crash) : .outside(.killed)
    case (_, .exited): .input(.crash)
    case (_, .unknown): .outside(.killed)
    }
  }

  var description: String {
    var parts = [how]
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
    parts.append("CPU \(Self.seconds(cpuSeconds)) s")
    parts.append("max RSS \(maxResidentBytes / 1024) KiB")
    if !lastWords.isEmpty { parts.append("stderr: \(lastWords)") }
    return parts.joined(separator: ", ")
  }

  /// Seconds with two decimals.
  static func seconds(_ value: Double) -> String {
    let hundredths = Int((max(0, value) * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
