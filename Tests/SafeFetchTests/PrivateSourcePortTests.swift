import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import SafeFetch

/// Private hosts only where named, and only as named, against a real origin on loopback: an
/// entry with a port allows that port only, and a redirect from one allowed host to another
/// reaches neither (the public-to-private case dials a non-loopback address, so it runs in
/// `IsolatedNetworkChild`).
@Suite struct PrivateSourcePortTests {
  @Test func anEntryWithAPortAllowsThatPortOnly() async throws {
    let origin = try await OriginServer.start()
    let fetcher = try FetchTest.fetcher(allow: "127.0.0.1:\(origin.http)")
    let fetched = try await fetcher.fetch("http://127.0.0.1:\(origin.http)/image.png")
    #expect(fetched.bytes.starts(with: FetchTest.pngSignature))
    // The origin's https listener: the same host, a port the entry does not name.
    let before = try origin.totalAccepts()
    let refused = await FetchTest.error(fetcher, "https://127.0.0.1:\(origin.https)/image.png")
    #expect(refused?.kind == .forbiddenAddress)
    #expect(
      refused?.detail.contains("allows on port \(origin.http) only (not \(origin.https))") == true,
      "\(String(describing: refused))")
    #expect(try origin.totalAccepts() == before, "no socket was opened")
  }

  /// The attack as it was tried: an allowed host that redirects to another allowed one, on a
  /// port nobody named. Followed before; refused now, and nothing is dialled there.
  @Test(arguments: [302, 307])
  func aRedirectFromOneAllowedHostToAnotherIsRefused(status: Int) async throws {
    let origin = try await OriginServer.start(extra: "127.0.0.2")
    let lan = try #require(origin.extra)
    let fetcher = try FetchTest.fetcher(allow: "127.0.0.1, 127.0.0.2")
    // Named by the caller, the second host is allowed.
    _ = try await fetcher.fetch("http://127.0.0.2:\(lan)/image.png")
    let before = try origin.counts().accepts["extra"] ?? 0
    let target = "http://127.0.0.2:\(lan)/image.png"
    let error = await FetchTest.error(
      fetcher,
      "http://127.0.0.1:\(origin.http)/to?status=\(status)&url=\(target.percentEncodedForQuery)")
    #expect(error?.kind == .forbiddenAddress)
    #expect(
      error?.detail.contains("allows only as the URL a caller sent") == true,
      "\(String(describing: error))")
    #expect(try origin.counts().accepts["extra"] == before)
    // A redirect from an allowed host to itself is followed.
    let same = "http://127.0.0.1:\(origin.http)/image.png"
    _ = try await fetcher.fetch(
      "http://127.0.0.1:\(origin.http)/to?status=\(status)&url=\(same.percentEncodedForQuery)")
  }
}
