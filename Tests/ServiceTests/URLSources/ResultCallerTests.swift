import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `GET /v1/artwork/results/{id}` answers only the caller that started the work: two tokens ask
/// for the same slow URL with `Prefer: wait=0`, each gets an id of its own, and each id is a 404
/// for the other caller, the same 404 as an id never given, while the work runs and after.
@Suite struct ResultCallerTests {
  static let relay = "relay-results-token-0123456789"
  static let plex = "plex-results-token-0123456789"

  static func post(_ service: RunningArtwork, _ source: String, token: String) async throws
    -> LoopbackHTTPResponse
  {
    try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/artwork",
        headers: [
          ("Content-Type", "application/json"), ("Authorization", "Bearer \(token)"),
          ("Prefer", "wait=0"),
        ],
        body: .bytes(Array(#"{"url":"\#(source)","shape":"poster"}"#.utf8))))
  }

  static func get(_ service: RunningArtwork, _ path: String, token: String?) async throws
    -> LoopbackHTTPResponse
  {
    try await service.get(path, headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
  }

  @Test func aResultAnswersOnlyTheCallerThatStartedIt() async throws {
    let service = try await RunningArtwork([
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32",
      "ARTWORK_API_TOKENS": "relay:\(Self.relay),plex:\(Self.plex)",
    ])
    let source = try URLSourceFixture.url("/slow.jpg" + URLSourceFixture.unique() + "&delay=2")
    let relayAccepted = try await Self.post(service, source, token: Self.relay)
    let plexAccepted = try await Self.post(service, source, token: Self.plex)
    #expect(relayAccepted.status == 202 && plexAccepted.status == 202, "\(relayAccepted.text)")
    let relayResult = try #require(relayAccepted.header("Location"))
    let plexResult = try #require(plexAccepted.header("Location"))
    #expect(relayResult.hasPrefix("/v1/artwork/results/") && relayResult != plexResult)

    let never = try await Self.get(
      service, "/v1/artwork/results/" + String(repeating: "0", count: 96), token: Self.relay)
    #expect(never.isProblem(404))
    // While the work runs: the other caller's id is unknown to each.
    for (path, token) in [(relayResult, Self.plex), (plexResult, Self.relay)] {
      let other = try await Self.get(service, path, token: token)
      #expect(other.isProblem(404), "\(other.text)")
      #expect(other.string("detail") == never.string("detail"))
    }
    #expect(try await Self.get(service, relayResult, token: Self.relay).status == 202)

    var mine = try await Self.get(service, relayResult, token: Self.relay)
    for _ in 0..<80 where mine.status == 202 {
      try await Task.sleep(for: .milliseconds(250))
      mine = try await Self.get(service, relayResult, token: Self.relay)
    }
    #expect(mine.status == 200, "\(mine.text)")
    let theirs = try await Self.get(service, plexResult, token: Self.plex)
    #expect(theirs.status == 200 && theirs.string("image_url") == mine.string("image_url"))
    // Made: still not the other caller's.
    for (path, token) in [(relayResult, Self.plex), (plexResult, Self.relay)] {
      let other = try await Self.get(service, path, token: token)
      #expect(other.isProblem(404), "\(other.text)")
      #expect(other.string("detail") == never.string("detail"))
    }
    // Without a token, 401 as on every results URL; a tampered tag is unknown.
    #expect(try await Self.get(service, relayResult, token: nil).status == 401)
    let tampered = String(relayResult.dropLast()) + (relayResult.hasSuffix("0") ? "1" : "0")
    #expect(try await Self.get(service, tampered, token: Self.relay).isProblem(404))
    await service.stop()
  }
}
