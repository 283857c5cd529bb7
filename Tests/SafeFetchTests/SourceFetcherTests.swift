import TestSupport
import Testing

@testable import ArtworkCore
@testable import SafeFetch

@Suite struct SourceFetcherTests {
  @Test func fetchesAnImageOverHTTPWhenLoopbackIsAllowed() async throws {
    let origin = try await OriginServer.start()
    let source = try await FetchTest.fetcher().fetch("http://127.0.0.1:\(origin.http)/image.png")
    #expect(source.status == 200)
    #expect(source.contentType == "image/png")
    #expect(source.bytes.starts(with: FetchTest.pngSignature))
    #expect(source.hops.count == 1)
    #expect(source.hops.first?.address == "127.0.0.1")
    #expect(source.hops.last?.url == "http://127.0.0.1:\(origin.http)/image.png")
  }

  @Test(.enabled(if: LoopbackIPv6.isAvailable, "needs IPv6 on loopback (::1)"))
  func fetchesOverIPv6Loopback() async throws {
    let origin = try await OriginServer.start()
    let port = try #require(origin.http6, "the origin did not listen on ::1")
    let source = try await FetchTest.fetcher().fetch("http://[::1]:\(port)/image.jpg")
    #expect(source.contentType == "image/jpeg")
    #expect(source.bytes.starts(with: [0xFF, 0xD8]))
  }

  @Test func fetchesOverHTTPSTrustingTheExtraCA() async throws {
    let origin = try await OriginServer.start()
    let source = try await FetchTest.fetcher().fetch("https://127.0.0.1:\(origin.https)/image.png")
    #expect(source.bytes.starts(with: FetchTest.pngSignature))
    let viaName = try await FetchTest.fetcher(allow: "localhost")
      .fetch("https://localhost:\(origin.https)/image.png")
    #expect(viaName.status == 200)
  }

  @Test func refusesAnUntrustedCertificate() async throws {
    let origin = try await OriginServer.start()
    let fetcher = try FetchTest.fetcher(trustTestCA: false)
    let error = await FetchTest.error(fetcher, "https://127.0.0.1:\(origin.https)/image.png")
    #expect(error?.kind == .badGateway)
    #expect(error?.detail.contains("certificate") == true)
    #expect(try origin.counts().requests["/image.png"] == nil)
  }

  /// `localhost.` is `localhost`: fetched when the list names it, refused as loopback (403)
  /// when it does not, and `*.localhost` likewise, all without a name lookup (a lookup of these
  /// names fails here, which would be a 502).
  @Test func localhostNamesAreJudgedByName() async throws {
    let origin = try await OriginServer.start()
    let named = try await FetchTest.fetcher(allow: "localhost")
      .fetch("http://localhost.:\(origin.http)/image.png")
    #expect(named.status == 200)
    for host in ["localhost", "localhost.", "images.localhost", "images.localhost."] {
      let error = await FetchTest.error(
        try FetchTest.fetcher(allow: nil), "http://\(host):\(origin.http)/image.png")
      #expect(error?.kind == .forbiddenAddress, "\(host): \(String(describing: error))")
      #expect(error?.detail.contains("loopback") == true, "\(String(describing: error))")
    }
  }

  @Test func followsRedirectsUpToTheLimit() async throws {
    let origin = try await OriginServer.start()
    let fetcher = try FetchTest.fetcher()
    let five = try await fetcher.fetch("http://127.0.0.1:\(origin.http)/redirect/5")
    #expect(five.hops.count == 6)
    #expect(five.hops.first?.status == 302)
    #expect(five.hops.first?.location == "http://127.0.0.1:\(origin.http)/redirect/4")
    #expect(five.hops.last?.url.hasSuffix("/redirect/0") == true)
    let six = await FetchTest.error(fetcher, "http://127.0.0.1:\(origin.http)/redirect/6")
    #expect(six?.kind == .badGateway)
    #expect(six?.detail.contains("more than 5") == true)
    #expect(try origin.counts().requests["/redirect/0"] == 1)
  }

  @Test(arguments: ["/loop/a", "/self"])
  func refusesRedirectLoops(path: String) async throws {
    let origin = try await OriginServer.start()
    let error = await FetchTest.error(
      try FetchTest.fetcher(), "http://127.0.0.1:\(origin.http)\(path)")
    #expect(error?.kind == .badGateway)
    #expect(error?.detail.contains("loop") == true)
  }

  @Test func resolvesRelativeRedirects() async throws {
    let origin = try await OriginServer.start()
    let source = try await FetchTest.fetcher().fetch("http://127.0.0.1:\(origin.http)/relative")
    #expect(source.hops.last?.url == "http://127.0.0.1:\(origin.http)/image.png")
  }

  @Test func refusesARedirectWithoutLocation() async throws {
    let origin = try await OriginServer.start()
    let error = await FetchTest.error(
      try FetchTest.fetcher(), "http://127.0.0.1:\(origin.http)/no-location")
    #expect(error?.kind == .badGateway)
  }

  // Redirects to non-loopback private literals (192.168/16, CGNAT, ULA, mapped, metadata) are in
  // IsolatedNetworkChild: there a regression of the policy still could not send a packet out.

  @Test(.enabled(if: LoopbackIPv6.isAvailable, "needs IPv6 on loopback (::1)"))
  func refusesARedirectToLoopbackTheListDoesNotCover() async throws {
    let origin = try await OriginServer.start()
    let port6 = try #require(origin.http6, "the origin did not listen on ::1")
    let url = "http://127.0.0.1:\(origin.http)/to?url=http://[::1]:\(port6)/image.png"
    let error = await FetchTest.error(try FetchTest.fetcher(allow: "127.0.0.1"), url)
    #expect(error?.kind == .forbiddenAddress)
    #expect(try origin.counts().accepts["http6"] == 0)
  }

  @Test func aListedHostNameAllowsOnlyConnectionsToThatName() async throws {
    let origin = try await OriginServer.start()
    let fetcher = try FetchTest.fetcher(allow: "localhost")
    let direct = try await fetcher.fetch("http://localhost:\(origin.http)/image.png")
    #expect(direct.status == 200)
    let hop = "http://127.0.0.1:\(origin.http)/image.png".percentEncodedForQuery
    let error = await FetchTest.error(fetcher, "http://localhost:\(origin.http)/to?url=\(hop)")
    #expect(error?.kind == .forbiddenAddress)
    #expect(error?.detail.contains("127.0.0.1 is a loopback address") == true)
  }

  @Test(arguments: [
    "http://user:secret@127.0.0.1:1/image.png", "ftp://127.0.0.1/image.png",
    "file:///etc/passwd", "gopher://127.0.0.1:70/", "dict://127.0.0.1:11211/stat",
  ])
  func refusesRedirectsToForbiddenURLs(target: String) async throws {
    let origin = try await OriginServer.start()
    let url = "http://127.0.0.1:\(origin.http)/to?url=\(target.percentEncodedForQuery)"
    let error = await FetchTest.error(try FetchTest.fetcher(), url)
    #expect(error?.kind == .badRequest, "\(String(describing: error))")
  }

  @Test(arguments: [
    "", "not a url", "http://", "http://exa mple.com/", "javascript:alert(1)",
    "http://user:pw@127.0.0.1:1/", "https://:pw@127.0.0.1:1/", "file:///etc/passwd",
    "ftp://127.0.0.1:1/a.png", "//127.0.0.1:1/a.png", "/image.png",
    "http://127.0.0.1:1/\(String(repeating: "a", count: 9000))", "http://127.0.0.1:1/\r\nX: y",
    "http://127.0.0.1:0/image.png", "https://[::1]:0/", "http://127.0.0.1:65536/",
  ])
  func refusesMalformedOrForbiddenURLsBeforeConnecting(url: String) async throws {
    let error = await FetchTest.error(try FetchTest.fetcher(allow: nil), url)
    #expect(error?.kind == .badRequest, "\(url): \(String(describing: error))")
  }

  /// Every spelling of loopback is refused by the default policy, and the origin sees nothing.
  @Test func theDefaultPolicyRefusesLoopbackInEverySpelling() async throws {
    let origin = try await OriginServer.start()
    let fetcher = try FetchTest.fetcher(allow: nil)
    let hosts = [
      "127.0.0.1", "localhost", "2130706433", "0x7f.1", "017700000001", "127.1", "127.000.000.1",
      "0x7f000001", "LOCALHOST",
    ]
    for host in hosts {
      let error = await FetchTest.error(fetcher, "http://\(host):\(origin.http)/image.png")
      #expect(error?.kind == .forbiddenAddress, "\(host): \(String(describing: error))")
    }
    let https = await FetchTest.error(fetcher, "https://127.0.0.1:\(origin.https)/image.png")
    #expect(https?.kind == .forbiddenAddress)
    #expect(try origin.totalAccepts() == 0)
  }

  /// The same for IPv6 loopback, spelled three ways, with a listener there to reach.
  @Test(.enabled(if: LoopbackIPv6.isAvailable, "needs IPv6 on loopback (::1)"))
  func theDefaultPolicyRefusesIPv6LoopbackInEverySpelling() async throws {
    let origin = try await OriginServer.start()
    let port6 = try #require(origin.http6, "the origin did not listen on ::1")
    let fetcher = try FetchTest.fetcher(allow: nil)
    for host in ["[::1]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]"] {
      let error = await FetchTest.error(fetcher, "http://\(host):\(port6)/image.png")
      #expect(error?.kind == .forbiddenAddress, "\(host): \(String(describing: error))")
    }
    #expect(try origin.totalAccepts() == 0)
  }

  /// 0.0.0.0 and :: reach the local host on Linux: refused even when loopback is allowed.
  @Test func neverDialsTheUnspecifiedAddress() async throws {
    let origin = try await OriginServer.start()
    let fetcher = try FetchTest.fetcher(allow: "127.0.0.1,::1")
    for url in ["http://0.0.0.0:\(origin.http)/image.png", "http://0:\(origin.http)/image.png"] {
      let error = await FetchTest.error(fetcher, url)
      #expect(error?.kind == .forbiddenAddress, "\(url): \(String(describing: error))")
    }
    #expect(try origin.totalAccepts() == 0)
  }

  /// `::` and its IPv4-mapped spelling, with a listener on `::1` that they would reach.
  @Test(.enabled(if: LoopbackIPv6.isAvailable, "needs IPv6 on loopback (::1)"))
  func neverDialsTheIPv6UnspecifiedAddress() async throws {
    let origin = try await OriginServer.start()
    let port6 = try #require(origin.http6, "the origin did not listen on ::1")
    let fetcher = try FetchTest.fetcher(allow: "127.0.0.1,::1")
    for url in ["http://[::]:\(port6)/image.png", "http://[::ffff:0.0.0.0]:\(port6)/image.png"] {
      let error = await FetchTest.error(fetcher, url)
      #expect(error?.kind == .forbiddenAddress, "\(url): \(String(describing: error))")
    }
    #expect(try origin.totalAccepts() == 0)
  }

  @Test(arguments: ["/chunked-big", "/close-delimited", "/declared-huge"])
  func capsTheBodyOnTheStream(path: String) async throws {
    let origin = try await OriginServer.start()
    let error = await FetchTest.error(
      try FetchTest.fetcher(maxBytes: 1_000_000), "http://127.0.0.1:\(origin.http)\(path)")
    #expect(error?.kind == .payloadTooLarge, "\(String(describing: error))")
  }

  @Test func readsNoMoreThanContentLengthSays() async throws {
    let origin = try await OriginServer.start()
    let source = try await FetchTest.fetcher().fetch("http://127.0.0.1:\(origin.http)/lying-short")
    #expect(source.bytes.starts(with: FetchTest.pngSignature))
    #expect(source.bytes.count < 1000)
  }

  @Test func cutsATricklingSourceAtTheDeadline() async throws {
    let origin = try await OriginServer.start()
    let fetcher = try FetchTest.fetcher(timeout: .milliseconds(700))
    let error = await FetchTest.error(fetcher, "http://127.0.0.1:\(origin.http)/trickle")
    #expect(error?.kind == .gatewayTimeout)
  }

  @Test(arguments: [
    ("/html", ArtworkError.Kind.unsupportedMediaType), ("/no-type", .unsupportedMediaType),
    ("/octet", .unsupportedMediaType), ("/gzip", .badGateway), ("/status/404", .sourceNotAvailable),
    ("/status/500", .badGateway), ("/status/204", .unsupportedMediaType),
    ("/many-headers", .badGateway),
  ])
  func refusesWhatIsNotAnImage(path: String, kind: ArtworkError.Kind) async throws {
    let origin = try await OriginServer.start()
    let error = await FetchTest.error(
      try FetchTest.fetcher(), "http://127.0.0.1:\(origin.http)\(path)")
    #expect(error?.kind == kind, "\(String(describing: error))")
  }

  @Test func namesTheErrorStatus() async throws {
    let origin = try await OriginServer.start()
    let error = await FetchTest.error(
      try FetchTest.fetcher(), "http://127.0.0.1:\(origin.http)/status/404")
    #expect(
      error?.detail
        == "The source answered HTTP 404 Not Found; check the URL and any credentials it needs.")
    #expect(error?.members == [.string("reason", "status"), .int("origin_status", 404)])
  }

  @Test func acceptsImageTypesWithParametersInAnyCase() async throws {
    let origin = try await OriginServer.start()
    let source = try await FetchTest.fetcher().fetch("http://127.0.0.1:\(origin.http)/image-params")
    #expect(source.status == 200)
  }

  @Test func sendsConditionalHeadersAndReportsNotModified() async throws {
    let origin = try await OriginServer.start()
    let fetcher = try FetchTest.fetcher()
    let url = "http://127.0.0.1:\(origin.http)/etag.png"
    let first = try await fetcher.fetch(url)
    #expect(first.validators.etag == "\"v1\"")
    #expect(first.validators.lastModified == "Wed, 21 Oct 2015 07:28:00 GMT")
    let again = try await fetcher.fetch(
      url, validators: Validators(etag: first.validators.etag))
    #expect(again.isNotModified)
    #expect(again.bytes.isEmpty)
    let smuggled = await FetchTest.error(
      fetcher, url, validators: Validators(etag: "\"v1\"\r\nX-Evil: 1"))
    #expect(smuggled?.kind == .badRequest)
  }

  @Test func sendsNoAcceptEncoding() async throws {
    let origin = try await OriginServer.start()
    let source = try await FetchTest.fetcher().fetch("http://127.0.0.1:\(origin.http)/headers")
    let headers = String(decoding: source.bytes, as: UTF8.self)
    #expect(!headers.contains("accept-encoding"))
    #expect(headers.contains("\"accept\": \"image/*\""))
  }

  @Test func answersBusyWhenThePoolIsFull() async throws {
    let origin = try await OriginServer.start()
    let pool = FetchPool(threads: 1, queueLimit: 0)
    let fetcher = try FetchTest.fetcher(timeout: .seconds(30), pool: pool)
    let slow = Task { await FetchTest.error(fetcher, "http://127.0.0.1:\(origin.http)/trickle") }
    // The one thread is taken (or about to be): a second fetch cannot wait anywhere.
    while try origin.counts().requests["/trickle"] == nil { await Task.yield() }
    let busy = await FetchTest.error(fetcher, "http://127.0.0.1:\(origin.http)/image.png")
    #expect(busy?.kind == .busy)
    #expect(busy?.retryAfter == 1)
    slow.cancel()
    let cancelled = await slow.value
    #expect(cancelled?.internalDetail == "task cancelled")
  }
}
