/// What a locked-down worker must not be able to do, tried for real by the worker itself when
/// asked (`WorkerJob.probe`): open a file, create one, open a socket and connect out, start a
/// program, signal its parent, raise its memory limit. Each attempt reports whether it
/// succeeded and what the system said; a contained worker reports six refusals. The targets and
/// the report cross the wire; the attempts themselves are the worker's (`ContainmentProbe.run`,
/// in `ImageWorker`).
public enum ContainmentProbe {
  /// What the attempts aim at.
  public struct Targets: Sendable, Equatable {
    /// A file that exists and is readable (`/etc/hostname`).
    public var file: String
    /// An address that accepts connections, and its port (a test's loopback listener).
    public var host: String
    public var port: Int
    /// A program to start (`/bin/true`).
    public var program: String

    public init(file: String, host: String, port: Int, program: String) {
      self.file = file
      self.host = host
      self.port = port
      self.program = program
    }
  }

  /// One attempt and what it met.
  public struct Attempt: Sendable, Equatable {
    /// What was tried (`open /etc/hostname`).
    public var action: String
    /// Whether it worked (it must not, in a worker).
    public var succeeded: Bool
    /// The system's words (`Permission denied`), or what it gave.
    public var outcome: String

    package init(action: String, succeeded: Bool, outcome: String) {
      self.action = action
      self.succeeded = succeeded
      self.outcome = outcome
    }
  }

  /// Every attempt, in order.
  public struct Report: Sendable, Equatable {
    public var attempts: [Attempt]

    package init(attempts: [Attempt]) { self.attempts = attempts }

    /// Whether every attempt was refused.
    public var allRefused: Bool { !attempts.isEmpty && attempts.allSatisfy { !$0.succeeded } }
  }
}
