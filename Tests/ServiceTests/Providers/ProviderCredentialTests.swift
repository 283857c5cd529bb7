import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// The token each way a media application can send it, through the clients people use, and
/// never written down: not in the access log, an error's log line, a problem or the metrics.
@Suite struct ProviderCredentialTests {
  static let token = "webhook-token-0123456789abcdef"
  static let settings = ["ARTWORK_API_TOKENS": "media:\(token)"]

  /// The lines logged while `body` ran, once the access lines of `expected` requests are in.
  static func logged(
    expected: Int, _ body: @escaping (ServiceHarness) async throws -> Void
  ) async throws -> [String] {
    let lines = Locked<[String]>([])
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    try await ServiceHarness.run(settings, logSink: sink) { service in
      try await body(service)
      for _ in 0..<500 {
        let requests = lines.withLock { $0 }.filter { $0.contains(#""msg":"request""#) }
        if requests.count >= expected { break }
        try await Task.sleep(for: .milliseconds(10))
      }
    }
    return lines.withLock { $0 }
  }

  @Test func everyFormIsAcceptedAndTheTokenNeverLogged() async throws {
    let body = Array(ProviderFixtures.text("sonarr", "test").utf8)
    let basic = "Basic " + Data("sonarr:\(Self.token)".utf8).base64EncodedString()
    let wrong = "Basic " + Data("sonarr:not-the-token-0123456789".utf8).base64EncodedString()
    let lines = try await Self.logged(expected: 8) { service in
      func post(_ target: String, _ headers: [(String, String)]) async throws
        -> LoopbackHTTPResponse
      {
        try await service.send(
          LoopbackHTTPRequest(
            "POST", target, headers: headers + [("Content-Type", "application/json")],
            body: .bytes(body)))
      }
      for (target, headers) in [
        ("/v1/providers/sonarr", [("Authorization", "Bearer \(Self.token)")]),
        ("/v1/providers/sonarr", [("Authorization", basic)]),
        ("/v1/providers/sonarr?token=\(Self.token)", []),
        ("/v1/providers/overseerr", [("Authorization", Self.token)]),
      ] {
        let answer = try await post(target, headers)
        #expect(answer.status == 200 || answer.status == 422, "\(target): \(answer.text)")
      }
      let refused = try await post("/v1/providers/sonarr", [("Authorization", wrong)])
      #expect(refused.isProblem(401))
      #expect(refused.header("WWW-Authenticate") == #"Bearer, Basic realm="artwork""#)
      let none = try await post("/v1/providers/sonarr", [])
      #expect(none.isProblem(401))
      #expect(none.string("detail")?.contains("?token=") == true)
      // A wrong query token, and a target that does not parse, carrying the real one.
      let badQuery = try await post("/v1/providers/plex?token=\(Self.token)x", [])
      #expect(badQuery.isProblem(401) && !badQuery.text.contains(Self.token))
      let malformed = try await post("/v1/providers/pl%zzex?token=\(Self.token)", [])
      #expect(malformed.status == 400)
      #expect(!malformed.text.contains(Self.token))
      // Basic is for the webhook route only: /v1/content still wants Bearer.
      let content = try await service.send(
        LoopbackHTTPRequest(
          "POST", "/v1/content?token=\(Self.token)",
          headers: [("Authorization", basic), ("Content-Type", "application/json")],
          body: .bytes(Array("{}".utf8))))
      #expect(content.isProblem(401))
      let metrics = try await service.get("/metrics")
      #expect(!metrics.text.contains(Self.token))
      #expect(
        metrics.text.contains(#"artwork_provider_events_total{provider="sonarr",status="none"}"#))
    }
    let requests = lines.filter { $0.contains(#""msg":"request""#) }
    #expect(requests.count >= 8)
    #expect(requests.contains { $0.contains(#""caller":"media""#) })
    for line in lines {
      #expect(!line.contains(Self.token), "\(line)")
      #expect(!line.contains("Test Title"), "a body was logged: \(line)")
    }
  }

  /// Sonarr's username and password fields, as curl sends them (`-u`), and Plex's URL token
  /// through Python's urllib.
  @Test func curlBasicAndUrllibQueryToken() async throws {
    let body = ProviderFixtures.text("radarr", "test")
    try await ServiceHarness.run(Self.settings) { service in
      let base = "http://127.0.0.1:\(service.port)/v1/providers"
      let curl = try await ServiceProcess.runProgram(
        "curl",
        [
          "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "radarr:\(Self.token)", "-H",
          "Content-Type: application/json", "--data-binary", body, base + "/radarr",
        ])
      #expect(curl.output == "200", "\(curl.output) \(curl.error)")
      let curlWrong = try await ServiceProcess.runProgram(
        "curl",
        [
          "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "radarr:wrong", "-H",
          "Content-Type: application/json", "--data-binary", body, base + "/radarr",
        ])
      #expect(curlWrong.output == "401")
      let script = """
        import sys, urllib.request, urllib.error
        request = urllib.request.Request(sys.argv[1], data=sys.argv[2].encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as answer:
            sys.stdout.write(str(answer.status) + " " + answer.headers["Artwork-Status"])
        """
      let python = try await ServiceProcess.runProgram(
        "python3", ["-c", script, base + "/radarr?token=\(Self.token)", body])
      #expect(python.output == #"200 none; reason="test""#, "\(python.error)")
      // urllib's Basic handler answers the challenge of a 401.
      let challenged = """
        import sys, urllib.request
        passwords = urllib.request.HTTPPasswordMgrWithDefaultRealm()
        passwords.add_password(None, sys.argv[1], "radarr", sys.argv[3])
        opener = urllib.request.build_opener(urllib.request.HTTPBasicAuthHandler(passwords))
        request = urllib.request.Request(sys.argv[1], data=sys.argv[2].encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with opener.open(request) as answer:
            sys.stdout.write(str(answer.status))
        """
      let handler = try await ServiceProcess.runProgram(
        "python3", ["-c", challenged, base + "/radarr", body, Self.token])
      #expect(handler.output == "200", "\(handler.error)")
    }
  }
}
