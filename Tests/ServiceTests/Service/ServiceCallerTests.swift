import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Callers with names, as an operator runs `artwork serve`: `name:token` pairs in
/// `ARTWORK_API_TOKENS` and in `ARTWORK_API_TOKENS_FILE`, the name in the access log and the
/// request metrics, `ARTWORK_API_RATE`'s 429, and the file re-read on SIGHUP. The relay's side
/// is Python urllib. Every request is `POST /v1/check` of a `.invalid` URL, which never
/// resolves (RFC 6761) and so sends nothing off the machine.
@Suite struct ServiceCallerTests {
  static let relay = "relay-token-0123456789"
  static let plex = "plex-token-0123456789"
  static let sonarr = "sonarr-token-0123456789"

  /// Posts `/v1/check` once per token (`-`: no Authorization), in order, with urllib; prints a
  /// JSON list of `{status, retry_after, content_type, type, detail}`.
  static let client = """
    import json, sys, urllib.error, urllib.request
    answers = []
    for token in sys.argv[2:]:
        headers = {"Content-Type": "application/json"}
        if token != "-":
            headers["Authorization"] = "Bearer " + token
        body = json.dumps({"url": "https://poster.invalid/a.jpg"}).encode()
        request = urllib.request.Request(sys.argv[1] + "/v1/check", data=body, method="POST",
                                         headers=headers)
        try:
            with urllib.request.urlopen(request) as answer:
                status, headers, text = answer.status, answer.headers, answer.read()
        except urllib.error.HTTPError as error:
            status, headers, text = error.code, error.headers, error.read()
        document = json.loads(text)
        answers.append({"status": status, "retry_after": headers.get("Retry-After"),
                        "content_type": headers.get("Content-Type"),
                        "type": document.get("type"), "detail": document.get("detail")})
    json.dump(answers, sys.stdout)
    """

  /// The statuses (and the rest) urllib saw for `tokens`, in order.
  static func call(_ port: Int, _ tokens: [String]) async throws -> [[String: Any]] {
    let result = try await ServiceProcess.runProgram(
      "python3", ["-c", client, "http://127.0.0.1:\(port)"] + tokens)
    try #require(result.status == 0, "\(result.error)")
    let list = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    return try #require(list as? [[String: Any]], "\(result.output)")
  }

  static func statuses(_ answers: [[String: Any]]) -> [Int] {
    answers.map { $0["status"] as? Int ?? 0 }
  }

  /// A token file at a fresh path, written whole (rename), as an operator's tool would.
  static func write(_ text: String, to path: String) throws {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// `artwork serve` on a free loopback port with `environment`, once healthy.
  static func serve(_ environment: [String: String], storage: URL) async throws -> (
    ServiceProcess, Int
  ) {
    let port = ServiceProcess.freePort()
    let child = try ServiceProcess(
      ["serve"],
      environment: environment.merging([
        "ARTWORK_LISTEN": "127.0.0.1:\(port)", "ARTWORK_STORAGE": storage.path,
        "ARTWORK_PUBLIC_URL": "http://127.0.0.1:\(port)", "ARTWORK_RETENTION": "0",
        "ARTWORK_LOG_LEVEL": "info", "ARTWORK_WORKERS": "1",
      ]) { $1 })
    try #require(
      await ServiceProcessTests.waitUntilHealthy(port: port, child: child), "\(child.errorOutput)")
    return (child, port)
  }

  /// The access-log lines of `/v1/check` the child wrote so far.
  static func accessLines(_ child: ServiceProcess) -> [[String: Any]] {
    child.errorOutput.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }.filter { $0["msg"] as? String == "request" && $0["path"] as? String == "/v1/check" }
  }

  /// Waits (bounded) until the child has logged a line with message `message`.
  static func waitForLog(_ child: ServiceProcess, _ message: String, count: Int = 1) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      if child.errorOutput.components(separatedBy: "\"msg\":\"\(message)\"").count > count {
        return true
      }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return false
  }

  static func metrics(_ port: Int) async throws -> [String] {
    let client = try await LoopbackHTTPClient(port: port, timeout: .seconds(10))
    defer { client.close() }
    let response = try await client.send(LoopbackHTTPRequest("GET", "/metrics"))
    return response.text.split(separator: "\n").map(String.init)
  }

  /// Named tokens from the variable and the file are accepted and named in the access log and
  /// the metrics; past `ARTWORK_API_RATE` (2 a minute) a caller gets a 429 with `Retry-After`,
  /// while another caller's bucket is its own.
  @Test func callersAreNamedAndLimited() async throws {
    let storage = ServiceProcessTests.storageDirectory()
    let file = storage.path + "-tokens"
    defer {
      try? FileManager.default.removeItem(at: storage)
      try? FileManager.default.removeItem(atPath: file)
    }
    try Self.write("# media servers\nplex:\(Self.plex)\n", to: file)
    let (child, port) = try await Self.serve(
      [
        "ARTWORK_API_TOKENS": "relay:\(Self.relay)", "ARTWORK_API_TOKENS_FILE": file,
        "ARTWORK_API_RATE": "2",
      ], storage: storage)
    defer { child.send(signal: SIGTERM) }

    let answers = try await Self.call(port, [Self.relay, Self.relay, Self.relay, "-", Self.plex])
    #expect(Self.statuses(answers) == [200, 200, 429, 401, 200], "\(answers)")
    let limited = answers[2]
    #expect(limited["content_type"] as? String == "application/problem+json")
    #expect(limited["type"] as? String == "urn:artwork:problem:rate-limited")
    let detail = limited["detail"] as? String ?? ""
    #expect(detail.contains("limited to 2 requests a minute (ARTWORK_API_RATE)"), "\(detail)")
    // 2 a minute: the next request is due 30 s after the first, less what has passed.
    let retry = try #require(Int(limited["retry_after"] as? String ?? ""), "\(limited)")
    #expect((1...30).contains(retry), "\(limited)")

    let lines = try await Self.metrics(port)
    for expected in [
      #"artwork_http_requests_total{route="/v1/check",status="200",caller="relay"} 2"#,
      #"artwork_http_requests_total{route="/v1/check",status="429",caller="relay"} 1"#,
      #"artwork_http_requests_total{route="/v1/check",status="401",caller="anonymous"} 1"#,
      #"artwork_http_requests_total{route="/v1/check",status="200",caller="plex"} 1"#,
      #"artwork_api_rate_limited_total{caller="relay"} 1"#,
    ] {
      #expect(lines.contains(expected), "\(expected)\n\(lines.filter { $0.contains("caller") })")
    }
    #expect(!lines.joined().contains("token-0123456789"))

    let logged = Self.accessLines(child)
    #expect(
      logged.map { "\($0["caller"] as? String ?? "?") \($0["status"] as? Int ?? 0)" }
        == ["relay 200", "relay 200", "relay 429", "anonymous 401", "plex 200"],
      "\(child.errorOutput)")
    #expect(!child.errorOutput.contains("token-0123456789"))
  }

  /// The token file is re-read on SIGHUP: a token added works and a token removed gets 401,
  /// without a restart; a bad file keeps the tokens in force and logs an error.
  @Test func sighupReloadsTheTokenFile() async throws {
    let storage = ServiceProcessTests.storageDirectory()
    let file = storage.path + "-tokens"
    defer {
      try? FileManager.default.removeItem(at: storage)
      try? FileManager.default.removeItem(atPath: file)
    }
    try Self.write("plex:\(Self.plex)\n", to: file)
    let (child, port) = try await Self.serve(
      ["ARTWORK_API_TOKENS": "relay:\(Self.relay)", "ARTWORK_API_TOKENS_FILE": file],
      storage: storage)
    defer { child.send(signal: SIGTERM) }

    #expect(
      Self.statuses(try await Self.call(port, [Self.plex, Self.sonarr, Self.relay]))
        == [200, 401, 200])

    // Sonarr added, Plex revoked.
    try Self.write("# rotated\nsonarr:\(Self.sonarr)\n", to: file)
    child.send(signal: SIGHUP)
    #expect(await Self.waitForLog(child, "API tokens reloaded"), "\(child.errorOutput)")
    #expect(
      Self.statuses(try await Self.call(port, [Self.sonarr, Self.plex, Self.relay]))
        == [200, 401, 200])

    // A bad file is refused whole: Sonarr stays in, nobody new gets in.
    try Self.write("sonarr:\(Self.sonarr)\nplex \(Self.plex)\n", to: file)
    child.send(signal: SIGHUP)
    #expect(
      await Self.waitForLog(child, "API tokens not reloaded: the previous tokens stay in force"))
    #expect(child.errorOutput.contains("line 2: expected name:token"), "\(child.errorOutput)")
    #expect(Self.statuses(try await Self.call(port, [Self.sonarr, Self.plex])) == [200, 401])

    let callers = Self.accessLines(child).map { $0["caller"] as? String ?? "?" }
    #expect(
      callers == [
        "plex", "anonymous", "relay", "sonarr", "anonymous", "relay", "sonarr", "anonymous",
      ], "\(child.errorOutput)")
    #expect(!child.errorOutput.contains("token-0123456789"))
    // Still serving: SIGHUP never stops it.
    #expect(await child.exitStatus(within: .zero) == nil)
  }
}
