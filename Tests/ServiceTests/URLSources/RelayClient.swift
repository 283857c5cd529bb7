import Foundation
import TestSupport

/// A request made the way a relay makes it: Python's urllib (a sidecar) or Node's fetch, each
/// run as its own program, so what is asserted is what those clients see.
struct RelayClient: Sendable, CustomStringConvertible {
  /// What the client got.
  struct Answer: Sendable {
    let status: Int
    /// Header names in lower case.
    let headers: [String: String]
    let body: String

    var json: [String: Any] {
      (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:]
    }

    /// The `content` object of a push body, or the body itself.
    var content: [String: Any] { json["content"] as? [String: Any] ?? json }
  }

  /// `urllib` or `node`.
  let name: String

  var description: String { name }

  /// The clients on this machine: urllib always, Node's fetch when `node` is installed.
  static let all: [RelayClient] =
    [RelayClient(name: "urllib")]
    + (ServiceProcess.which("node") != nil ? [RelayClient(name: "node")] : [])

  static let fixtures = Repository.root.appendingPathComponent(
    "Tests/ServiceTests/URLSources/Fixtures")

  /// `method url` with `headers` and `body` (JSON text; empty for none).
  func send(
    _ method: String, _ url: String, headers: [String: String] = [:], body: String = ""
  ) async throws -> Answer {
    var headers = headers
    if !body.isEmpty, headers["Content-Type"] == nil {
      headers["Content-Type"] = "application/json"
    }
    let encoded = String(
      decoding: try JSONSerialization.data(withJSONObject: headers), as: UTF8.self)
    let program = name == "node" ? "node" : "python3"
    let script = Self.fixtures.appendingPathComponent(
      name == "node" ? "relay_request.mjs" : "relay_request.py"
    ).path
    let run = try await ServiceProcess.runProgram(
      program, [script, method, url, encoded, body], timeout: .seconds(90))
    guard run.status == 0,
      let object = try? JSONSerialization.jsonObject(with: Data(run.output.utf8))
        as? [String: Any],
      let status = object["status"] as? Int
    else {
      throw RelayClientError(description: "\(name) failed: \(run.output) \(run.error)")
    }
    return Answer(
      status: status, headers: object["headers"] as? [String: String] ?? [:],
      body: object["body"] as? String ?? "")
  }
}

struct RelayClientError: Error, CustomStringConvertible {
  let description: String
}
