import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `artwork process` applies the service's limits and answers the service's problem text.
@Suite struct CLILimitTests {
  @Test func overLimitSourceIsRefusedLikeTheService() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Over the default 2,000,000 bytes (and within the service's multipart allowance, so the
    // service reads it and judges the image rather than the body): a JPEG padded after its end.
    let coffee = Fixtures.bytes("coffee.jpg")
    let big = folder.appendingPathComponent("big.jpg")
    try Data(coffee + [UInt8](repeating: 0, count: 2_030_000 - coffee.count)).write(to: big)
    let out = folder.appendingPathComponent("out").path
    let refused = try await ServiceProcess.run(["process", big.path, "--out", out])
    #expect(refused.status == 1)
    let served = try await ServiceHarness.run { service in
      try await service.uploadRaw([UInt8](try Data(contentsOf: big)), type: "image/jpeg")
    }
    #expect(served.status == 413)
    let detail = try #require(served.object["detail"] as? String)
    let line = try #require(try CLIBatchTests.objects(refused.output).first)
    let problem = try #require(line["problem"] as? [String: Any])
    #expect(problem["status"] as? Int == 413)
    #expect(problem["detail"] as? String == detail)
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
  }

  /// `ARTWORK_MAX_SOURCE_BYTES` lowers the limit as it does for the service; `--no-size-limit`
  /// lifts it explicitly.
  @Test func environmentLimitAndNoSizeLimit() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = Fixtures.path("coffee.jpg")
    let environment = ["ARTWORK_MAX_SOURCE_BYTES": "50000"]
    let refused = try await ServiceProcess.run(
      ["process", source, "--out", folder.path], environment: environment)
    #expect(refused.status == 1)
    #expect(refused.output.contains("the limit is"), "\(refused.output)")
    let lifted = try await ServiceProcess.run(
      ["process", source, "--no-size-limit", "--out", folder.path], environment: environment)
    #expect(lifted.status == 0, "\(lifted.error)")
    let bad = try await ServiceProcess.run(
      ["process", source, "--out", folder.path], environment: ["ARTWORK_MAX_SOURCE_BYTES": "x"])
    #expect(bad.status == 2)
    #expect(bad.error.hasPrefix("artwork process: invalid configuration: ARTWORK_MAX_SOURCE_BYTES"))
  }
}
