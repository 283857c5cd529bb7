import Foundation
import TestSupport
import Testing

/// Every fuzz target's seed corpus and every finding ever committed (`Fuzz/findings/NAME`),
/// replayed through the target as built for the tests: a finding stays a regression test.
@Suite struct FuzzReplayTests {
  static let fuzz = ServiceProcess.executable.deletingLastPathComponent()
    .appendingPathComponent("artwork-fuzz").path

  @Test(arguments: [
    "image", "request-body", "content", "thumbhash", "connection", "providers", "forwarded",
  ])
  func corpusAndFindingsReplayCleanly(target: String) async throws {
    let root = Repository.root.appendingPathComponent("Fuzz")
    let folders = ["corpus", "findings"].map { root.appendingPathComponent("\($0)/\(target)").path }
    let count = folders.reduce(0) { total, folder in
      total
        + ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
          !$0.hasPrefix(".")
        }.count
    }
    #expect(count > 0)
    let run = try ServiceProcess(executable: Self.fuzz, [target] + folders)
    let status = await run.exitStatus(within: .seconds(600))
    #expect(status == 0, "\(run.errorOutput)")
    #expect(run.output.contains("replayed \(count) inputs"), "\(run.output)")
  }
}
