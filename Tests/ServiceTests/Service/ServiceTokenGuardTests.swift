import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The token file and the bearer token under pressure, as `artwork serve` meets them: a
/// revocation holds once the reload is counted, a file caught half-written keeps the tokens in
/// force, and wrong tokens are limited per client address. Requests are raw HTTP on loopback
/// (`POST /v1/check` of a `.invalid` URL, which never resolves: nothing leaves the machine).
@Suite struct ServiceTokenGuardTests {
  static let relay = ServiceCallerTests.relay
  static let plex = ServiceCallerTests.plex
  static let sonarr = ServiceCallerTests.sonarr

  /// `POST /v1/check` with `token` (nil: no Authorization), written by hand on a fresh
  /// connection from `source`; the status and the `Retry-After`.
  static func check(_ port: Int, _ token: String?, from source: String = "127.0.0.1")
    async throws -> (status: Int, retryAfter: String?)
  {
    let client = try await LoopbackHTTPClient(port: port, source: source)
    defer { client.close() }
    let body = #"{"url":"https://poster.invalid/a.jpg"}"#
    var head = "POST /v1/check HTTP/1.1\r\nHost: artwork\r\nContent-Type: application/json\r\n"
    if let token { head += "Authorization: Bearer \(token)\r\n" }
    head += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
    try await client.sendRaw(Array((head + body).utf8))
    let response = try await client.readResponse()
    return (response.status, response.header("Retry-After"))
  }

  /// The value of the metric series `series` (`name{labels}`), 0 when not listed.
  static func metric(_ port: Int, _ series: String) async throws -> Double {
    let line = try await ServiceCallerTests.metrics(port).first { $0.hasPrefix(series + " ") }
    return line.flatMap { Double($0.dropFirst(series.count + 1)) } ?? 0
  }

  /// Sends SIGHUP and waits (bounded) until the reload is counted with `result`: from then on
  /// the new tokens are in force, as docs/security.md says.
  static func reload(_ child: ServiceProcess, _ port: Int, result: String) async throws -> Bool {
    let series = #"artwork_api_token_reloads_total{result="\#(result)"}"#
    let before = try await metric(port, series)
    child.send(signal: SIGHUP)
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      if try await metric(port, series) > before { return true }
      try await Task.sleep(for: .milliseconds(5))
    }
    return false
  }

  /// Revoked by a reload, refused on the very next request, every time; a file caught
  /// half-written (cut in its last line, or empty) is refused whole and changes nothing.
  @Test func aRevocationHoldsOnceTheReloadIsCounted() async throws {
    let storage = ServiceProcessTests.storageDirectory()
    let file = storage.path + "-tokens"
    defer {
      try? FileManager.default.removeItem(at: storage)
      try? FileManager.default.removeItem(atPath: file)
    }
    try ServiceCallerTests.write("plex:\(Self.plex)\n", to: file)
    let (child, port) = try await ServiceCallerTests.serve(
      ["ARTWORK_API_TOKENS": "relay:\(Self.relay)", "ARTWORK_API_TOKENS_FILE": file],
      storage: storage)
    defer { child.send(signal: SIGTERM) }

    for round in 0..<10 {
      try ServiceCallerTests.write("plex:\(Self.plex)\n", to: file)
      #expect(try await Self.reload(child, port, result: "ok"), "\(child.errorOutput)")
      #expect(try await Self.check(port, Self.plex).status == 200, "round \(round)")
      try ServiceCallerTests.write("sonarr:\(Self.sonarr)\n", to: file)
      #expect(try await Self.reload(child, port, result: "ok"), "\(child.errorOutput)")
      #expect(try await Self.check(port, Self.plex).status == 401, "round \(round)")
      #expect(try await Self.check(port, Self.sonarr).status == 200, "round \(round)")
    }

    // Half-written: the last line cut, then an empty file. Sonarr stays in, Plex stays out.
    for text in ["sonarr:\(Self.sonarr)\nplex:\(Self.plex.prefix(20))", ""] {
      try ServiceCallerTests.write(text, to: file)
      #expect(try await Self.reload(child, port, result: "refused"), "\(child.errorOutput)")
      #expect(try await Self.check(port, Self.sonarr).status == 200)
      #expect(try await Self.check(port, Self.plex).status == 401)
    }
    #expect(child.errorOutput.contains("does not end with a line break"), "\(child.errorOutput)")
    #expect(child.errorOutput.contains("the file is empty"))
    // A token under 16 characters in the file is a bad line.
    try ServiceCallerTests.write("sonarr:\(Self.sonarr)\nplex:0123456789\n", to: file)
    #expect(try await Self.reload(child, port, result: "refused"))
    #expect(child.errorOutput.contains("line 2: the token is shorter than 16 characters"))
    #expect(try await Self.check(port, "0123456789").status == 401)
    #expect(!child.errorOutput.contains("token-0123456789"))
  }

  /// Past `ARTWORK_API_RATE` wrong tokens from one network, the 401 becomes a 429 with
  /// `Retry-After`; a valid token from it is still taken; another network is not touched. Both
  /// answers are counted.
  @Test func wrongTokensAreLimitedPerAddress() async throws {
    let storage = ServiceProcessTests.storageDirectory()
    defer { try? FileManager.default.removeItem(at: storage) }
    let (child, port) = try await ServiceCallerTests.serve(
      ["ARTWORK_API_TOKENS": "relay:\(Self.relay)", "ARTWORK_API_RATE": "3"], storage: storage)
    defer { child.send(signal: SIGTERM) }

    let guesser = "127.0.0.2"
    var statuses: [Int] = []
    for index in 0..<4 {
      let token = index == 1 ? nil : "relay-token-guess-\(index)"
      statuses.append(try await Self.check(port, token, from: guesser).status)
    }
    #expect(statuses == [401, 401, 401, 429])
    let locked = try await Self.check(port, "relay-token-guess-5", from: "127.0.0.200")
    #expect(locked.status == 429, "another address of the same /24 is the same network")
    #expect((1...20).contains(Int(locked.retryAfter ?? "") ?? 0), "\(locked)")
    // The relay's valid token is never locked out by another client's guesses.
    #expect(try await Self.check(port, Self.relay, from: guesser).status == 200)
    // Another network: the relay gets in, and a wrong token is a plain 401.
    #expect(try await Self.check(port, Self.relay, from: "127.0.3.3").status == 200)
    #expect(try await Self.check(port, "relay-token-guess-9", from: "127.0.3.3").status == 401)

    #expect(try await Self.metric(port, #"artwork_api_token_refusals_total{status="401"}"#) == 4)
    #expect(try await Self.metric(port, #"artwork_api_token_refusals_total{status="429"}"#) == 2)
    #expect(try await Self.metric(port, #"artwork_api_rate_limited_total{caller="relay"}"#) == 0)
  }
}
