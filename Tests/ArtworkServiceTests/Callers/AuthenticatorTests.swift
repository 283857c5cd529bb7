import ArtworkCore
import Foundation
import HTTP
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

  /// A reload refuses the file whole, and keeps the tokens in force, for a token under 16
  /// characters, a line without a name and a token, or a file that looks half-written.
  @Test(arguments: [
    ("plex:plex-token-0123456789\nsonarr:short\n", "line 2: the token is shorter than 16"),
    ("plex:plex-token-0123456789\nsonarr-token-0123456789\n", "line 2: expected name:token"),
    ("plex:plex-token-0123456789\nsonarr:sonarr-tok", "does not end with a line break"),
    ("", "the file is empty"),
  ])
  func aBadReloadKeepsTheTokensInForce(text: String, words: String) throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-tokens-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try "plex:plex-token-0123456789\n".write(toFile: path, atomically: true, encoding: .utf8)
    let authenticator = Authenticator(tokens: [Self.relay], file: path, fileTokens: [Self.plex])
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    guard case .failure(let problems)? = authenticator.reload() else {
      Issue.record("\(words): the file was taken")
      return
    }
    #expect(problems.list.joined().contains(words), "\(problems)")
    #expect(
      !problems.list.joined().contains(":short") && !problems.list.joined().contains("sonarr-tok"))
    #expect(try authenticator.authenticate("Bearer plex-token-0123456789").name == "plex")
    #expect(throws: ArtworkError.self) { try authenticator.authenticate("Bearer short") }
    #expect(Set(authenticator.callerNames) == ["relay", "plex", "anonymous"])
  }

  /// Missing or wrong tokens count against their network at `ARTWORK_API_RATE`: past it the
  /// 401 becomes a 429 with `Retry-After`, for every missing or wrong token from that network.
  /// A valid token is never refused for it, from any address of the network, and takes nothing
  /// from it; another network, and a valid token's own bucket, are untouched.
  @Test func wrongTokensCountAgainstTheirNetworkAndNeverLockOutAValidOne() throws {
    let authenticator = Authenticator(tokens: [Self.relay], rate: 2)
    let metrics = Metrics()
    let check = CallerCheck(authenticator: authenticator, metrics: metrics)
    func status(_ token: String?, from address: String) -> Int {
      var headers = HTTPHeaders()
      if let token { headers.add("Authorization", "Bearer \(token)") }
      guard
        var head = HTTPRequestHead(
          id: "t", method: .post, target: "/v1/check", headers: headers, remoteAddress: address)
      else { return 0 }
      do {
        try check.authorize(&head)
        #expect(head.share == Self.relay.name && head.hasCredential)
        return 200
      } catch {
        if error.kind == .rateLimited {
          #expect(error.retryAfter.map { (1...60).contains($0) } == true, "\(error)")
        }
        // Refused for its own token's rate: its share is the token's; else its network's.
        let network = "network " + address.split(separator: ".").prefix(3).joined(separator: ".")
        #expect(head.share == (head.hasCredential ? Self.relay.name : network + ".0/24"))
        return error.kind.status
      }
    }
    let good = Self.relay.secret
    // The valid token from the attacker's network takes nothing from it.
    #expect(status(good, from: "192.0.2.7") == 200)
    #expect(status("guess-0000000000000000", from: "192.0.2.7") == 401)
    #expect(status(nil, from: "192.0.2.9") == 401)
    // Another address of the same /24 is the same network.
    #expect(status("guess-0000000000000001", from: "192.0.2.200") == 429)
    #expect(status("guess-0000000000000002", from: "192.0.2.7") == 429)
    // Over the limit, a valid token still gets in, from any address of the network: the
    // relay behind the same proxy or NAT is never locked out by another client's guesses.
    #expect(status(good, from: "192.0.2.7") == 200)
    #expect(status(good, from: "192.0.2.8") == 429, "the relay's own bucket (2) is spent")
    // Another network is its own.
    #expect(status("guess-0000000000000003", from: "192.0.3.8") == 401)
    #expect(metrics.value(Metrics.tokenRefusals, ["401"]) == 3)
    #expect(metrics.value(Metrics.tokenRefusals, ["429"]) == 2)
    #expect(metrics.value(Metrics.rateLimited, [Self.relay.name]) == 1)
    let refusal = try #require(authenticator.addressRefusal("192.0.2.77"))
    #expect(refusal.detail.contains("2 such requests a minute (ARTWORK_API_RATE)"), "\(refusal)")
    #expect(!refusal.detail.contains("192.0.2"))

    // No rate: nothing is limited; no token configured: nothing to get wrong.
    let open = Authenticator(tokens: [Self.relay], rate: 0)
    #expect(open.failures == nil)
    #expect(Authenticator(tokens: [], rate: 5).failures == nil)
  }

  /// A client is counted by its network: an IPv4 address by its /24, an IPv6 one by its /64
  /// (the block one machine is given), or as the prefixes are set.
  @Test func aClientIsCountedByItsNetwork() {
    let limit = FailedTokenLimit(perMinute: 1)
    #expect(limit.key("2001:db8:0:1:aaaa::1") == "2001:db8:0:1::/64")
    #expect(limit.key("2001:db8:0:1:ffff:1:2:3") == "2001:db8:0:1::/64")
    #expect(limit.key("2001:db8:0:2::1") == "2001:db8:0:2::/64")
    #expect(limit.key("::1") == "::/64")
    #expect(limit.key("203.0.113.9") == "203.0.113.0/24")
    #expect(limit.key(nil) == "unknown")
    let now = ContinuousClock.now
    #expect(limit.fail("2001:db8:0:1::5", at: now) == nil)
    #expect(limit.fail("2001:db8:0:1::6", at: now) != nil)
    #expect(limit.wait("2001:db8:0:2::6", at: now) == nil)
    #expect(limit.fail("203.0.113.9", at: now) == nil)
    #expect(limit.wait("203.0.113.10", at: now) != nil)
    let exact = FailedTokenLimit(perMinute: 1, networks: .addresses)
    #expect(exact.key("203.0.113.9") == "203.0.113.9/32")
    #expect(exact.fail("203.0.113.9", at: now) == nil)
    #expect(exact.wait("203.0.113.10", at: now) == nil)
  }

  /// The networks kept are bounded: full buckets are forgotten first, then the half nearest
  /// to full; a network in debt is remembered over one that is not.
  @Test func theNetworksKeptAreBounded() {
    let limit = FailedTokenLimit(perMinute: 1, capacity: 4, networks: .addresses)
    let start = ContinuousClock.now
    // Four addresses in debt for a minute, one a second apart.
    for index in 0..<4 {
      _ = limit.fail("198.51.100.\(index)", at: start + .seconds(index))
    }
    #expect(limit.count == 4)
    // A fifth, 61.5 s on: the first two buckets are full again and go.
    _ = limit.fail("198.51.100.9", at: start + .seconds(61) + .milliseconds(500))
    #expect(limit.count <= 4)
    #expect(limit.wait("198.51.100.3", at: start + .seconds(62)) != nil)
    // A flood of new addresses at one moment: never more than the capacity.
    for index in 0..<100 { _ = limit.fail("203.0.113.\(index)", at: start + .seconds(62)) }
    #expect(limit.count <= 4)
  }
}
