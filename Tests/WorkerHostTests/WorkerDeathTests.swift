import Testing

@testable import ArtworkCore
@testable import WorkerHost

#if canImport(Glibc)
  import Glibc
#endif

/// Whom a worker's death blames, from its wait status, what the pool did to it and the CPU
/// time it used alone: its last words and its peak memory are reported, never judged.
@Suite struct WorkerDeathTests {
  static let timeout = Duration.seconds(4)

  static let cases: [(WorkerDeath.Status, WorkerDeath.Kill, cpu: Double, WorkerDeath.Verdict)] = [
    // The pool's deadline kill is the input's timeout when the worker had the CPU time to
    // use half its budget or more...
    (.signalled(SIGKILL), .deadline, 4.1, .input(.timeout)),
    (.signalled(SIGKILL), .deadline, 2.0, .input(.timeout)),
    // ...and says nothing of the input when it did not: it was stopped, or starved.
    (.signalled(SIGKILL), .deadline, 1.99, .outside(.starved)),
    (.signalled(SIGKILL), .deadline, 0, .outside(.starved)),
    // It died of its own code just before the deadline kill came.
    (.signalled(SIGSEGV), .deadline, 0, .input(.crash)),
    (.exited(70), .deadline, 0, .input(.crash)),
    // The signals of the worker's own code, whatever its CPU time.
    (.signalled(SIGSEGV), .none, 0, .input(.crash)),
    (.signalled(SIGBUS), .none, 0, .input(.crash)),
    (.signalled(SIGILL), .none, 0, .input(.crash)),
    (.signalled(SIGFPE), .none, 0, .input(.crash)),
    (.signalled(SIGABRT), .none, 0, .input(.crash)),
    (.signalled(SIGTRAP), .none, 0, .input(.crash)),
    (.signalled(SIGSYS), .none, 0, .input(.crash)),
    // A kill from outside the pool (the OOM killer, an operator), however busy it was.
    (.signalled(SIGKILL), .none, 3.9, .outside(.killed)),
    (.signalled(SIGTERM), .none, 0, .outside(.killed)),
    (.signalled(SIGINT), .none, 0, .outside(.killed)),
    (.signalled(SIGHUP), .deadline, 4, .outside(.killed)),
    (.unknown, .none, 0, .outside(.killed)),
    (.unknown, .deadline, 4, .outside(.killed)),
    // An exit in the middle of a job is the worker's own doing.
    (.exited(0), .none, 0, .input(.crash)),
    (.exited(70), .none, 0, .input(.crash)),
    // So is an answer out of protocol, whatever the pool's kill then did.
    (.signalled(SIGKILL), .protocolError("a malformed answer"), 0, .input(.crash)),
  ]

  @Test func theVerdictFollowsFromTheStatusThePoolsKillAndTheCPUTime() {
    for (status, kill, cpu, verdict) in Self.cases {
      let death = WorkerDeath(
        status: status, kill: kill, how: "it died in the job", cpuSeconds: cpu)
      #expect(death.verdict(timeout: Self.timeout) == verdict, "\(status), \(kill), \(cpu)")
    }
  }

  /// Words of running out of memory on standard error and a peak at the limit made a death a
  /// `memory` failure once; now they are only reported.
  @Test func lastWordsAndPeakMemoryAreReportedNotJudged() {
    let death = WorkerDeath(
      status: .signalled(SIGABRT), kill: .none, how: "it died in the job",
      maxResidentBytes: 64 << 20, lastWords: "GLib: failed to allocate 4294967296 bytes")
    #expect(death.verdict(timeout: Self.timeout) == .input(.crash))
    #expect(death.description.contains("signal 6"))
    #expect(death.description.contains("max RSS 65536 KiB"))
    #expect(death.description.contains("stderr: GLib: failed to allocate"))
  }

  @Test func theDescriptionSaysWhatThePoolDid() {
    let timedOut = WorkerDeath(
      status: .signalled(SIGKILL), kill: .deadline, how: "its job ran out of time",
      cpuSeconds: 0.125)
    #expect(timedOut.description.hasPrefix("its job ran out of time"))
    #expect(timedOut.description.contains("killed by the pool at its deadline, signal 9"))
    #expect(timedOut.description.contains("CPU 0.13 s"))
    let broke = WorkerDeath(
      status: .signalled(SIGKILL), kill: .protocolError("a malformed answer"), how: "it answered")
    #expect(broke.description.contains("it broke the protocol (a malformed answer)"))
    let exited = WorkerDeath(status: .exited(70), kill: .none, how: "it died in the job")
    #expect(exited.description == "it died in the job, exit 70, CPU 0.00 s, max RSS 0 KiB")
  }
}
