import Foundation
import TestSupport
import Testing

/// schemathesis (PyPI) against `artwork serve` with every check on and a bounded number of
/// examples per operation: no server error, every status, header and body as the document says,
/// schema-violating requests refused and schema-valid ones accepted.
///
/// NOTE: generated requests carry arbitrary URLs for the service to fetch, so the service and
/// schemathesis run together in a fresh network namespace whose only interface is loopback
/// (`Fixtures/schemathesis.sh`, which refuses to run otherwise). Skipped where namespaces cannot
/// be made.
@Suite struct SchemathesisTests {
  /// Examples per operation: enough for every phase to reach every operation, in about a minute
  /// on two cores.
  static let maxExamples = 150

  @Test(
    .enabled(if: NetworkIsolation.canIsolate, "needs unshare --net --map-root-user and ip"),
    .timeLimit(.minutes(10)))
  func theServiceKeepsItsContract() async throws {
    let bin = try await OpenAPITools.installed()
    let fixtures = Repository.root.appendingPathComponent(
      "Tests/ServiceTests/Contract/Fixtures")
    let arguments =
      NetworkIsolation.unshare + [
        "bash", fixtures.appendingPathComponent("schemathesis.sh").path,
        ServiceProcess.executable.path, bin,
        fixtures.appendingPathComponent("schemathesis.toml").path, String(Self.maxExamples),
        Fixtures.directory.appendingPathComponent("coffee.jpg").path,
      ]
    let child = try ServiceProcess(
      executable: "/usr/bin/timeout", ["540"] + arguments,
      environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp"])
    let status = await child.exitStatus(within: .seconds(560))
    #expect(status == 0, "\(child.output)\n\(child.errorOutput)")
    #expect(child.output.contains("passed"), "\(child.output)")
  }
}
