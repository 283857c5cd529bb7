import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// Answers decided from a request's headers (413, 415, 401) reach the clients relays are
/// written with, every time: Python's urllib and http.client write the whole body before they
/// read anything, Node's fetch reads while it writes. A server that closes with the body unread
/// resets the connection and those clients see a network error instead of the answer.
@Suite(.serialized) struct EarlyErrorDeliveryTests {
  static let fixtures = Repository.root.appendingPathComponent(
    "Tests/ServiceTests/Service/Fixtures")
  static let tries = 20
  static let token = "early-errors-test-token-0123456789"

  /// Each case, the environment it needs and the status it must get.
  static let cases: [(name: String, environment: [String: String], status: Int)] = [
    ("too-large", [:], 413),
    ("wrong-type", [:], 415),
    ("no-token", ["ARTWORK_API_TOKENS": token], 401),
  ]

  @Test(arguments: ["urllib", "http.client"], [0, 1, 2])
  func pythonClientsReadTheAnswer(client: String, caseIndex: Int) async throws {
    let testCase = Self.cases[caseIndex]
    try await ServiceHarness.run(testCase.environment) { service in
      let run = try await ServiceProcess.runProgram(
        "python3",
        [
          Self.fixtures.appendingPathComponent("early_errors.py").path, String(service.port),
          client, testCase.name, String(Self.tries),
        ])
      #expect(run.status == 0, "\(run.error)")
      let statuses = Self.results(run.output)
      #expect(
        statuses == Array(repeating: String(testCase.status), count: Self.tries),
        "\(client) \(testCase.name): \(statuses)")
    }
  }

  @Test(.enabled(if: ServiceProcess.which("node") != nil, "needs Node.js"), arguments: [0, 1, 2])
  func nodeFetchReadsTheAnswer(caseIndex: Int) async throws {
    let testCase = Self.cases[caseIndex]
    try await ServiceHarness.run(testCase.environment) { service in
      let run = try await ServiceProcess.runProgram(
        "node",
        [
          Self.fixtures.appendingPathComponent("early_errors.mjs").path, String(service.port),
          testCase.name, String(Self.tries),
        ])
      #expect(run.status == 0, "\(run.error)")
      let statuses = Self.results(run.output)
      #expect(
        statuses == Array(repeating: String(testCase.status), count: Self.tries),
        "fetch \(testCase.name): \(statuses)")
    }
  }

  /// The JSON array a script printed, each entry as text (a status, or an error's name).
  static func results(_ output: String) -> [String] {
    guard let data = output.data(using: .utf8),
      let array = try? JSONSerialization.jsonObject(with: data) as? [Any]
    else { return ["unreadable: \(output)"] }
    return array.map { "\($0)" }
  }
}
