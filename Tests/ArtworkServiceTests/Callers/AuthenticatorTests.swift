import ArtworkCore
import Foundation
import Testing

@testable import ArtworkService

/// Named tokens, the per-caller rate and the swap of the token set, without a server.
@Suite struct AuthenticatorTests {
  static let relay = APIToken(name: "relay", secret: "relay-token-0123456789")
  static let plex = APIToken(name: "plex", secret: "plex-token-0123456789")

  @Test func aTokenNamesItsCaller() throws {
    let authenticator = Authenticator(tokens: [Self.relay, Self.plex])
    #expect(try authenticator.authenticate("Bearer plex-token-0123456789").name == "plex")
    #expect(try authenticator.authenticate("bearer relay-token-0123456789").name == "relay")
    for header in [nil, "Bearer plex-token-012345678", "Basic cmVsYXk=", "Bearer "] {
      #expect(throws: ArtworkError.self) { try authenticator.authenticate(header) }
    }
    // Without tokens, everyone is anonymous and unlimited.
    let open = Authenticator(tokens: [], rate: 1)
    #expect(try open.authenticate(nil).name == "anonymous")
    #expect(open.overLimit(try open.authenticate(nil)) == nil)
  }

  /// A minute's worth at once, then one every 60/N seconds; the wait is rounded up.
  @Test func theRateIsABucketOfAMinutesWorth() {
    let limit = CallerRateLimit(perMinute: 2)
    let start = ContinuousClock.now
    #expect(limit.admit(at: start) == nil)
    #expect(limit.admit(at: start + .milliseconds(100)) == nil)
    #expect(limit.admit(at: start + .milliseconds(200)) == 30)
    #expect(limit.admit(at: start + .seconds(29)) == 1)
    #expect(limit.admit(at: start + .seconds(30)) == nil)
    #expect(limit.admit(at: start + .seconds(31)) == 29)
    // After a quiet two minutes the bucket is full again, not fuller.
    let later = start + .seconds(200)
    #expect(limit.admit(at: later) == nil && limit.admit(at: later) == nil)
    #expect(limit.admit(at: later) == 30)
  }

  @Test func theRefusalNamesTheLimitAndWhenToRetry() throws {
    let authenticator = Authenticator(tokens: [Self.relay], rate: 1)
    let caller = try authenticator.authenticate("Bearer relay-token-0123456789")
    #expect(authenticator.overLimit(caller) == nil)
    let refusal = try #require(authenticator.overLimit(caller))
    #expect(refusal.kind == .rateLimited && refusal.kind.status == 429)
    #expect(refusal.retryAfter.map { (59...60).contains($0) } == true, "\(refusal)")
    #expect(refusal.detail.contains("relay is limited to 1 request a minute (ARTWORK_API_RATE)"))
    #expect(refusal.problemResponse().headers["Retry-After"] == refusal.retryAfter.map(String.init))
  }

  /// A reload swaps the whole set; a caller kept keeps its bucket, so SIGHUP refills nobody.
  @Test func aReloadSwapsTheSetAndKeepsTheBucketsOfTokensKept() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-tokens-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try "plex:plex-token-0123456789\n".write(toFile: path, atomically: true, encoding: .utf8)
    let authenticator = Authenticator(
      tokens: [Self.relay], file: path, fileTokens: [Self.plex], rate: 1)
    let plex = try authenticator.authenticate("Bearer plex-token-0123456789")
    #expect(authenticator.overLimit(plex) == nil)

    try "plex:plex-token-0123456789\nsonarr:sonarr-token-0123456789\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    #expect(try authenticator.reload()?.get() == 3)
    let again = try authenticator.authenticate("Bearer plex-token-0123456789")
    #expect(authenticator.overLimit(again) != nil)
    #expect(try authenticator.authenticate("Bearer sonarr-token-0123456789").name == "sonarr")
    #expect(Set(authenticator.callerNames) == ["relay", "plex", "sonarr", "anonymous"])

    try "sonarr:relay-token-0123456789\n".write(toFile: path, atomically: true, encoding: .utf8)
    guard case .failure(let problems)? = authenticator.reload() else {
      Issue.record("a token under two names was accepted")
      return
    }
    #expect(problems.list.first?.contains("have the same token") == true, "\(problems)")
    #expect(try authenticator.authenticate("Bearer plex-token-0123456789").name == "plex")
  }
}
