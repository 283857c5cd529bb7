import Foundation
import TestSupport
import Testing

/// The command line's batches run in worker processes too, the service's own: an input that
/// makes its worker fail fails its own line, and the batch goes on with a new worker.
@Suite struct CLIWorkerTests {
  /// A 30000x30000 picture under a raised pixel limit outlasts a one-second deadline (its worker
  /// is killed); the inputs after it are answered as usual.
  static let environment = [
    "ARTWORK_MAX_PIXELS": "1000000000", "ARTWORK_WORKER_TIMEOUT": "1s",
  ]

  static var inputs: [String] {
    [
      Fixtures.path("hostile/bomb-30k.png"), Fixtures.path("coffee.jpg"),
      Fixtures.path("hostile/components-2.jpg"), Fixtures.path("hostile/middle-cut.jpg"),
      Fixtures.path("chelsea.png"),
    ]
  }

  @Test func thumbhashGoesOnPastAnInputThatKillsItsWorker() async throws {
    let result = try await ServiceProcess.run(
      ["thumbhash", "--json", "--jobs", "1"] + Self.inputs, environment: Self.environment)
    #expect(result.status == 1, "\(result.error)")
    let lines = try CLIBatchTests.objects(result.output)
    #expect(lines.count == Self.inputs.count)
    let byInput = Dictionary(uniqueKeysWithValues: lines.map { ($0["input"] as? String ?? "", $0) })
    let bomb = try #require(byInput[Self.inputs[0]])
    #expect(bomb["ok"] as? Bool == false)
    let problem = try #require(bomb["problem"] as? [String: Any])
    #expect(problem["type"] as? String == "urn:artwork:problem:decoder-failure")
    #expect(problem["reason"] as? String == "timeout")
    for input in [Self.inputs[1], Self.inputs[2], Self.inputs[4]] {
      #expect(byInput[input]?["ok"] as? Bool == true, "\(input): \(byInput[input] ?? [:])")
      #expect((byInput[input]?["thumbhash"] as? String)?.isEmpty == false)
    }
    let damaged = try #require(byInput[Self.inputs[3]]?["problem"] as? [String: Any])
    #expect(damaged["type"] as? String == "urn:artwork:problem:unprocessable-image")
  }

  @Test func processGoesOnPastAnInputThatKillsItsWorker() async throws {
    let root = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: root) }
    let out = root.appendingPathComponent("out").path
    let result = try await ServiceProcess.run(
      ["process", "--jobs", "2", "--shape", "square", "--out", out] + Self.inputs,
      environment: Self.environment)
    #expect(result.status == 1, "\(result.error)")
    let lines = try CLIBatchTests.objects(result.output)
    #expect(lines.count == Self.inputs.count)
    let failed = lines.filter { $0["ok"] as? Bool == false }.map { $0["input"] as? String ?? "" }
    #expect(Set(failed) == [Self.inputs[0], Self.inputs[3]])
    let written = try FileManager.default.contentsOfDirectory(atPath: out)
    #expect(written.count == 3, "\(written)")
    #expect(
      result.error.contains("3 succeeded") || result.error.contains("2 failed"), "\(result.error)")
  }
}
