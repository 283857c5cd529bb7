import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import SafeFetch

/// End-to-end refusal of a non-loopback private address, with an origin really listening on it.
///
/// NOTE: this must never send a packet off the machine, so the part that dials 10.0.0.1 runs only
/// in a fresh network namespace whose one interface is `lo` (with 10.0.0.1 added to it): the test
/// re-executes the test binary (`NetworkIsolation`) under `unshare --net --mount --map-root-user`, and the child suite checks
/// the isolation before doing anything. Where unprivileged namespaces or `ip` are unavailable the
/// test is skipped; the open-socket refusal tests on loopback cover the same code path.
@Suite struct IsolatedNetworkTests {
  @Test(.enabled(if: NetworkIsolation.canIsolate, "needs unshare --net --map-root-user and ip"))
  func refusesAPrivateAddressThatReallyListens() throws {
    let binary = CommandLine.arguments[0]
    let (status, output) = try NetworkIsolation.run(
      ["/usr/bin/timeout", "180"] + NetworkIsolation.unshare + [
        "sh", "-c",
        "\(NetworkIsolation.setUp) && exec \"$0\" --testing-library swift-testing --filter IsolatedNetworkChild",
        binary,
      ], environment: [NetworkIsolation.childVariable: "1"])
    #expect(status == 0, "\(output)")
    // Exit status 0 alone could mean the filter matched nothing.
    #expect(output.contains("Suite IsolatedNetworkChild passed"), "\(output)")
  }

}

/// Runs only inside the namespaces made by `IsolatedNetworkTests`. Every test dialling (or that a
/// regression could make dial) an address off loopback lives here and nowhere else.
@Suite(.enabled(if: NetworkIsolation.isChild), .serialized)
struct IsolatedNetworkChild {
  /// Refuses to go on unless `lo` is the only interface: nothing can leave this namespace.
  /// NOTE: /proc/self/net follows this process's namespace; /sys/class/net does not.
  static func requireIsolation() throws {
    let table = try String(contentsOfFile: "/proc/self/net/dev", encoding: .utf8)
    let interfaces = table.split(separator: "\n").dropFirst(2).compactMap {
      $0.split(separator: ":").first?.trimmingCharacters(in: .whitespaces)
    }
    try #require(interfaces == ["lo"], "not isolated: \(interfaces)")
  }

  /// A redirect to a private address nobody allowed is refused by the open-socket callback,
  /// before any socket exists.
  @Test(arguments: [
    ("http://192.168.77.1:9/x", "192.168.77.1 is a private address (192.168.0.0/16)"),
    ("http://100.101.102.103/x", "100.101.102.103 is a CGNAT/Tailscale address (100.64.0.0/10)"),
    ("http://[fd00::1]/x", "fd00::1 is a unique local (private) address (fc00::/7)"),
    ("http://[::ffff:10.1.2.3]/x", "10.1.2.3, a private address (10.0.0.0/8)"),
    ("http://169.254.169.254/latest/meta-data/", "a link-local address (169.254.0.0/16)"),
  ])
  func refusesARedirectToAnotherPrivateAddress(target: String, words: String) async throws {
    try Self.requireIsolation()
    let origin = try await OriginServer.start()
    let url = "http://127.0.0.1:\(origin.http)/to?url=\(target.percentEncodedForQuery)"
    let error = await FetchTest.error(try FetchTest.fetcher(allow: "127.0.0.1"), url)
    #expect(error?.kind == .forbiddenAddress)
    #expect(error?.detail.contains(words) == true, "\(String(describing: error))")
  }

  /// The attack as it was tried: a public URL that answers 302 or 307 to an allowed LAN host.
  /// The public origin is 11.22.33.44, added to `lo` in this namespace only (nothing leaves
  /// it); the LAN host, 127.0.0.1, is allowed and really listens, and is never dialled.
  @Test(arguments: [302, 307])
  func aPublicRedirectNeverReachesAnAllowedPrivateHost(status: Int) async throws {
    try Self.requireIsolation()
    let origin = try await OriginServer.start(extra: NetworkIsolation.publicAddress)
    let port = try #require(origin.extra)
    let fetcher = try FetchTest.fetcher(allow: "127.0.0.1")
    let lan = "http://127.0.0.1:\(origin.http)/image.png"
    let before = try origin.counts().accepts["http"] ?? 0
    let error = await FetchTest.error(
      fetcher,
      "http://\(NetworkIsolation.publicAddress):\(port)/to?status=\(status)&url="
        + lan.percentEncodedForQuery)
    #expect(error?.kind == .forbiddenAddress, "\(String(describing: error))")
    #expect(error?.detail.contains("allows only as the URL a caller sent") == true)
    #expect(try origin.counts().accepts["http"] == before, "the LAN host was never dialled")
    // The public origin itself is fetched as any public one.
    _ = try await fetcher.fetch("http://\(NetworkIsolation.publicAddress):\(port)/image.png")
  }

  @Test func refusesAPrivateAddressThatReallyListens() async throws {
    try Self.requireIsolation()

    let origin = try await OriginServer.start(extra: "10.0.0.1")
    let port = try #require(origin.extra)
    let url = "http://10.0.0.1:\(port)/image.png"

    let refused = await FetchTest.error(try FetchTest.fetcher(allow: nil), url)
    #expect(refused?.kind == .forbiddenAddress)
    #expect(refused?.detail.hasPrefix("10.0.0.1 is a private address (10.0.0.0/8)") == true)
    let hop = "http://127.0.0.1:\(origin.http)/to?url=\(url.percentEncodedForQuery)"
    let redirected = await FetchTest.error(try FetchTest.fetcher(allow: "127.0.0.1"), hop)
    #expect(redirected?.kind == .forbiddenAddress)
    #expect(try origin.counts().accepts["extra"] == 0)

    // Proxies named by the environment are ignored (safe to set here: this process runs only
    // this suite). Were the proxy used, 127.0.0.1 (allowed) would be dialled and answer 404.
    for name in ["http_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] {
      setenv(name, "http://127.0.0.1:\(origin.http)", 1)
    }
    unsetenv("no_proxy")
    unsetenv("NO_PROXY")
    let proxied = await FetchTest.error(try FetchTest.fetcher(allow: "127.0.0.1"), url)
    #expect(proxied?.kind == .forbiddenAddress)
    #expect(try origin.counts().accepts["http"] == 1)  // the redirect above, nothing since
    #expect(try origin.counts().accepts["extra"] == 0)

    // The same origin is reachable once listed: the zero above is a refusal, not a dead end.
    let allowed = try await FetchTest.fetcher(allow: "10.0.0.0/8").fetch(url)
    #expect(allowed.status == 200)
    #expect(try origin.counts().accepts["extra"] == 1)
  }

  /// A host name with one private answer among others is refused before anything is dialled,
  /// even when the other answers are allowed; a name whose every answer is allowed is fetched.
  @Test func aNameWithAnyRefusedAnswerIsRefusedWhole() async throws {
    try Self.requireIsolation()
    let resolved = HostResolver.resolve(
      "mixed.test", within: .seconds(5),
      on: BlockingPool<Void>(name: "t-dns", threads: 1, queueLimit: 0))
    try #require(
      resolved == .addresses([IPAddress(parsing: "127.0.0.1")!, IPAddress(parsing: "10.0.0.1")!]),
      "the namespace's /etc/hosts is not in place: \(resolved)")
    let origin = try await OriginServer.start(extra: "10.0.0.1")
    let fetcher = try FetchTest.fetcher(allow: "127.0.0.1")

    let mixed = await FetchTest.error(fetcher, "http://mixed.test:\(origin.http)/image.png")
    #expect(mixed?.kind == .forbiddenAddress)
    #expect(
      mixed?.detail.hasPrefix(
        "mixed.test resolves to 10.0.0.1, a private address (10.0.0.0/8); ") == true,
      "\(String(describing: mixed))")
    // Also when the name is reached by a redirect from an allowed address.
    let hop = "http://mixed.test:\(origin.http)/image.png".percentEncodedForQuery
    let redirected = await FetchTest.error(
      fetcher, "http://127.0.0.1:\(origin.http)/to?url=\(hop)")
    #expect(redirected?.kind == .forbiddenAddress)
    #expect(try origin.counts().accepts["http"] == 1)  // the redirect only
    #expect(try origin.counts().accepts["extra"] == 0)

    // Every answer allowed: fetched, from the one address the name has.
    let single = try await fetcher.fetch("http://loopback.test:\(origin.http)/image.png")
    #expect(single.status == 200)
    // The name listed: every answer it has is allowed, the private one included.
    let listed = try await FetchTest.fetcher(allow: "mixed.test").fetch(
      "http://mixed.test:\(origin.http)/image.png")
    #expect(listed.status == 200)
  }

  /// A name whose lookup never answers is cut at the fetch deadline (504), not held for the
  /// resolver's own timeout (5 s in this namespace's resolv.conf).
  @Test func aLookupThatNeverAnswersEndsAtTheFetchDeadline() async throws {
    try Self.requireIsolation()
    // A name server that reads nothing: queries to 127.0.0.1:53 wait for an answer.
    let server = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    try #require(server >= 0)
    defer { close(server) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(53).bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    try #require(bound == 0, "bind 127.0.0.1:53: errno \(errno)")

    let fetcher = try FetchTest.fetcher(allow: nil, timeout: .seconds(1))
    let started = ContinuousClock.now
    let error = await FetchTest.error(fetcher, "http://silent.test/image.png")
    let waited = ContinuousClock.now - started
    #expect(error?.kind == .gatewayTimeout, "\(String(describing: error))")
    #expect(waited < .seconds(4), "waited \(waited): the resolver's 5 s, not the 1 s deadline")
  }
}
