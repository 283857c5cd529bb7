import Testing

@testable import ArtworkCore
@testable import ImageWorkers

#if canImport(Glibc)
  import Glibc
#endif

/// What a worker's death is taken to mean, from its wait status and what the pool did to it
/// alone: its last words and its peak memory are reported, never judged.
@Suite struct WorkerDeathTests {
  static let cases: [(WorkerDeath.Status, WorkerDeath.Kill, DecoderFailure)] = [
    // The pool's own deadline kill, and nothing else, is a timeout.
    (.signalled(SIGKILL), .deadline, .timeout),
    // It died of something else just before the deadline kill came.
    (.signalled(SIGSEGV), .deadline, .crash),
    (.exited(70), .deadline, .crash),
    // A kill from outside the pool (the OOM killer, an operator): the pool cannot tell who.
    (.signalled(SIGKILL), .none, .crash),
    (.signalled(SIGSEGV), .none, .crash),
    (.signalled(SIGABRT), .none, .crash),
    (.signalled(SIGILL), .none, .crash),
    (.signalled(SIGTRAP), .none, .crash),
    (.exited(0), .none, .crash),
    (.exited(70), .none, .crash),
    (.unknown, .none, .crash),
    (.signalled(SIGKILL), .protocolError("a malformed answer"), .crash),
    (.signalled(SIGKILL), .cleanup, .crash),
  ]

  @Test func theReasonFollowsFromTheStatusAndThePoolsKill() {
    for (status, kill, reason) in Self.cases {
      let death = WorkerDeath(status: status, kill: kill, how: "it died in the job")
      #expect(death.reason == reason, "\(status), \(kill)")
    }
  }

  /// Words of running out of memory on standard error and a peak at the limit made a death a
  /// `memory` failure once; now they are only reported.
  @Test func lastWordsAndPeakMemoryAreReportedNotJudged() {
    let death = WorkerDeath(
      status: .signalled(SIGABRT), kill: .none, how: "it died in the job",
      maxResidentBytes: 64 << 20, lastWords: "GLib: failed to allocate 4294967296 bytes")
    #expect(death.reason == .crash)
    #expect(death.description.contains("signal 6"))
    #expect(death.description.contains("max RSS 65536 KiB"))
    #expect(death.description.contains("stderr: GLib: failed to allocate"))
  }

  @Test func theDescriptionSaysWhatThePoolDid() {
    let timedOut = WorkerDeath(
      status: .signalled(SIGKILL), kill: .deadline, how: "its job ran out of time")
    #expect(timedOut.description.hasPrefix("timeout: its job ran out of time"))
    #expect(timedOut.description.contains("killed by the pool at its deadline, signal 9"))
    let broke = WorkerDeath(
      status: .signalled(SIGKILL), kill: .protocolError("a malformed answer"), how: "it answered")
    #expect(broke.description.contains("it broke the protocol (a malformed answer)"))
    let exited = WorkerDeath(status: .exited(70), kill: .none, how: "it died in the job")
    #expect(exited.description == "crash: it died in the job, exit 70, max RSS 0 KiB")
  }
}
