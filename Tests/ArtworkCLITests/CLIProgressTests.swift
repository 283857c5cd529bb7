import Foundation
import TestSupport
import Testing

@testable import ArtworkCLI

/// The progress of a batch: plain lines where standard error is not a terminal, and no rate
/// before the run has gone on long enough for one to mean anything.
@Suite struct CLIProgressTests {
  @Test func theRateWaitsForTheRunToSettle() {
    let started = ContinuousClock.now
    var line = ProgressLine(total: 10, enabled: false, inPlace: false, started: started)
    line.record(ok: true, now: started + .milliseconds(20))
    // One image in 20 ms is not 50 images a second.
    #expect(line.text(now: started + .milliseconds(20)) == "1/10 done, 0 failed")
    line.record(ok: false, now: started + .seconds(2))
    #expect(line.text(now: started + .seconds(2)) == "2/10 done, 1 failed, 1.0 images/s, 8 s left")
  }

  /// `--progress always` into a file (a pipe here): plain lines, no terminal escape codes.
  @Test func alwaysIntoAFileWritesPlainLines() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try await ServiceProcess.run([
      "process", Fixtures.path("coffee.jpg"), Fixtures.path("chelsea.png"), "--out",
      folder.path, "--progress", "always", "--jobs", "1",
    ])
    #expect(result.status == 0, "\(result.error)")
    #expect(!result.error.contains("\u{1B}") && !result.error.contains("\r"), "\(result.error)")
    #expect(result.error.contains("2/2 done, 0 failed"), "\(result.error)")
  }
}
