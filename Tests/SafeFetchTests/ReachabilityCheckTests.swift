import Foundation
import TestSupport
import Testing

@testable import SafeFetch

@Suite struct ReachabilityCheckTests {
  /// A PNG header reader standing in for the imaging sniff code the service wires in.
  static let sniffPNG: ReachabilityCheck.FormatSniffer = { bytes in
    guard bytes.count >= 24, bytes.starts(with: FetchTest.pngSignature) else { return nil }
    func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return ("png", be32(16), be32(20))
  }

  /// Fetching as a phone would but letting loopback through, so the rest of the rules can run.
  static func loopbackCheck(trustTestCA: Bool = true) throws -> ReachabilityCheck {
    let fetcher = try FetchTest.fetcher(
      maxBytes: ReachabilityCheck.phoneMaxBytes, trustTestCA: trustTestCA)
    return ReachabilityCheck(fetcher: fetcher, sniff: sniffPNG)
  }

  static func verdicts(_ report: ReachabilityReport) -> [String: Bool?] {
    Dictionary(uniqueKeysWithValues: report.checks.map { ($0.name, $0.ok) })
  }

  /// The rules that ran and failed, sorted.
  static func failures(_ report: ReachabilityReport) -> [String] {
    report.checks.filter { $0.ok == false }.map(\.name).sorted()
  }

  /// Everything the report says in words: reasons and advice.
  static func words(_ report: ReachabilityReport) -> String {
    (report.checks.map(\.reason) + report.advice).joined(separator: "\n")
  }

  @Test func passesEveryRuleButThePrivateAddress() async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck().check("https://127.0.0.1:\(origin.https)/image.png")
    #expect(
      report.checks.map(\.name) == [
        "https", "public_address", "redirects", "tls", "status", "content_type", "size", "format",
      ])
    #expect(Self.verdicts(report).filter { $0.value != true }.keys.sorted() == ["public_address"])
    #expect(!report.ok)
    // An address literal is named once, not said to resolve to itself.
    #expect(
      report.check("public_address")?.reason.hasPrefix("127.0.0.1 is a loopback address") == true)
    #expect(report.check("format")?.reason == "PNG, 4×3 pixels.")
    #expect(report.format == "png" && report.width == 4 && report.height == 3)
    #expect(report.advice.first?.contains("send image_thumbhash, which everyone sees") == true)
    // The service's own policy (public only here) cannot fetch it: listing it is the way.
    #expect(report.advice.first?.contains("ARTWORK_PRIVATE_SOURCES") == true)
    #expect(report.advice.count == 1, "\(report.advice)")
    let json =
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
    #expect(json?["ok"] as? Bool == false)
    let checks = json?["checks"] as? [[String: Any]]
    #expect(checks?.first?["name"] as? String == "https")
    #expect(checks?.first?["ok"] as? Bool == true)
    #expect(json?["width"] as? Int == 4)
  }

  /// The default check is a phone: it judges the address and never dials it.
  @Test func theDefaultCheckNeverConnectsToAPrivateAddress() async throws {
    let origin = try await OriginServer.start()
    let check = ReachabilityCheck(pool: FetchTest.pool, sniff: Self.sniffPNG)
    for url in [
      "https://127.0.0.1:\(origin.https)/image.png", "http://localhost:\(origin.http)/image.png",
      "http://0x7f.1:\(origin.http)/image.png",
    ] {
      let report = try await check.check(url)
      #expect(!report.ok)
      // One failure for one cause: the rules after the address never ran.
      let expected = url.hasPrefix("https:") ? ["public_address"] : ["https", "public_address"]
      #expect(Self.failures(report) == expected, "\(report.checks)")
      for name in ["redirects", "tls", "status", "content_type", "size", "format"] {
        let rule = try #require(report.check(name))
        #expect(rule.ok == nil, "\(name): \(rule)")
        #expect(rule.reason.hasPrefix("Not checked"), "\(name): \(rule.reason)")
      }
      // An address literal is refused as dialled; a name on what it resolves to.
      let reason = report.check("status")?.reason ?? ""
      #expect(
        reason.hasPrefix("Not checked: 127.0.0.1 is a loopback")
          || reason.hasPrefix("Not checked: localhost resolves to 127.0.0.1, a loopback")
          || reason.contains("::1 is the loopback"),
        "\(report.checks)")
      // No advice for a rule that did not run.
      #expect(!report.advice.contains { $0.contains("200") || $0.contains("Content-Type") })
    }
    #expect(try origin.totalAccepts() == 0)
  }

  @Test func namesEveryAddressOfAName() async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck().check("http://localhost:\(origin.http)/image.png")
    let reason = try #require(report.check("public_address")?.reason)
    #expect(reason.hasPrefix("localhost resolves to "))
    #expect(reason.contains("127.0.0.1 is a loopback address (127.0.0.0/8)"))
  }

  /// Without https there is no certificate: the TLS rule is not checked, not failed a second
  /// time for the same cause.
  @Test func plainHTTPFailsHTTPSAndSkipsTLS() async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck().check("http://127.0.0.1:\(origin.http)/image.png")
    #expect(report.check("https")?.ok == false)
    #expect(report.check("tls")?.ok == nil)
    #expect(
      report.check("tls")?.reason.contains("is not https, so there is no certificate") == true)
    #expect(report.check("status")?.ok == true)
    #expect(!report.advice.contains { $0.contains("certificate") }, "\(report.advice)")
    #expect(report.advice.contains("Serve the image over https: phones load only https URLs."))
  }

  @Test func anUntrustedCertificateFailsTLS() async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck(trustTestCA: false)
      .check("https://127.0.0.1:\(origin.https)/image.png")
    let tls = try #require(report.check("tls"))
    #expect(tls.ok == false)
    #expect(tls.reason.contains("certificate"), "\(tls.reason)")
    #expect(report.check("status")?.ok == nil)
    #expect(report.check("status")?.reason.hasPrefix("Not checked: the TLS certificate") == true)
    #expect(Self.failures(report) == ["public_address", "tls"])
  }

  @Test func aRedirectToHTTPFailsRedirects() async throws {
    let origin = try await OriginServer.start()
    let hop = "http://127.0.0.1:\(origin.http)/image.png".percentEncodedForQuery
    let report = try await Self.loopbackCheck()
      .check("https://127.0.0.1:\(origin.https)/to?url=\(hop)")
    #expect(report.check("redirects")?.ok == false)
    #expect(report.check("redirects")?.reason.contains("not https") == true)
    #expect(report.check("tls")?.ok == nil)
    #expect(report.check("status")?.ok == true)
    #expect(report.advice.contains { $0.hasPrefix("Make every redirect lead to a public https") })
  }

  /// Each hop's address is judged as a phone would, even where this fetcher may go.
  @Test func judgesEveryRedirectHopAsAPhone() async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck().check(
      "https://127.0.0.1:\(origin.https)/redirect/2")
    let redirects = try #require(report.check("redirects"))
    #expect(redirects.ok == false)
    #expect(redirects.reason.contains("/redirect/1: 127.0.0.1 is a loopback address"))
    #expect(report.check("status")?.ok == true)
  }

  @Test(arguments: [
    ("/status/404", "status", "The source answered HTTP 404 Not Found; phones need 200."),
    ("/html", "content_type", "not an image/* type"),
    ("/chunked-big?size=2000001", "size", "sent more than 2000000 bytes"),
    ("/declared-huge", "size", "declares 50000000 bytes"),
    ("/headers", "format", "not an image format phones decode"),
    ("/loop/a", "redirects", "loop"),
  ])
  func namesTheRuleBroken(path: String, rule: String, words: String) async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck().check("https://127.0.0.1:\(origin.https)\(path)")
    let check = try #require(report.check(rule))
    #expect(check.ok == false)
    #expect(check.reason.contains(words), "\(check.reason)")
    // The address (loopback) and this rule fail; the rules it stopped are not checked.
    #expect(Self.failures(report) == ["public_address", rule].sorted(), "\(report.checks)")
    let later = report.checks.drop { $0.name != rule }.dropFirst()
    #expect(later.allSatisfy { $0.ok != false }, "\(report.checks)")
  }

  @Test func justUnderTheLimitPassesSize() async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck()
      .check("https://127.0.0.1:\(origin.https)/chunked-big?size=2000000")
    #expect(report.check("size")?.ok == true)
    #expect(report.check("format")?.ok == false)
  }

  /// A name that does not resolve is said not to resolve, not called private; the rules after
  /// it are not checked, and the advice is about the name alone. (`.invalid` never resolves,
  /// RFC 6761, so the resolver is not asked: nothing leaves the machine.)
  @Test func aNameThatDoesNotResolveIsSaidNotToResolve() async throws {
    let check = ReachabilityCheck(pool: FetchTest.pool, sniff: Self.sniffPNG)
    let report = try await check.check("https://poster.invalid/s02e04.jpg")
    #expect(!report.ok)
    #expect(report.check("https")?.ok == true)
    let address = try #require(report.check("public_address"))
    #expect(address.ok == false)
    #expect(address.reason.hasPrefix("poster.invalid does not resolve ("), "\(address.reason)")
    #expect(Self.failures(report) == ["public_address"])
    for rule in report.checks.dropFirst(2) {
      #expect(rule.ok == nil, "\(rule)")
      #expect(rule.reason == "Not checked: the host does not resolve.", "\(rule)")
    }
    #expect(!Self.words(report).lowercased().contains("private"), "\(Self.words(report))")
    #expect(report.advice.count == 1, "\(report.advice)")
    #expect(report.advice.first?.hasPrefix("Check the host name: it does not resolve") == true)
  }

  /// The advice fits the service's configuration: re-hosting is offered when the service may
  /// fetch the address, and `ARTWORK_PRIVATE_SOURCES` is named only when it does not list it.
  @Test func theAdviceFitsTheServicesAddressPolicy() async throws {
    let origin = try await OriginServer.start()
    let url = "https://127.0.0.1:\(origin.https)/image.png"
    let listed = try await ReachabilityCheck(
      fetcher: try FetchTest.fetcher(allow: nil), servicePolicy: FetchTest.policy("127.0.0.1"),
      sniff: Self.sniffPNG
    ).check(url)
    #expect(!Self.words(listed).contains("ARTWORK_PRIVATE_SOURCES"), "\(Self.words(listed))")
    #expect(
      listed.advice.contains { $0.hasSuffix("re-host the image publicly with POST /v1/artwork.") })
    let unlisted = try await ReachabilityCheck(
      fetcher: try FetchTest.fetcher(allow: nil), sniff: Self.sniffPNG
    ).check(url)
    #expect(
      unlisted.advice.first?.contains("list this host or its network in ARTWORK_PRIVATE_SOURCES")
        == true)
    // Only the advice says so: no reason talks about the service's configuration.
    #expect(!unlisted.checks.contains { $0.reason.contains("ARTWORK_PRIVATE_SOURCES") })
    #expect(try origin.totalAccepts() == 0)
  }

  /// A rule that was not checked is `null` in the JSON, not left out.
  @Test func aSkippedRuleEncodesAsNull() throws {
    let report = ReachabilityReport(
      url: "https://a.invalid/", ok: false,
      checks: [ReachabilityReport.Check.skipped("tls", "Not checked.")], advice: [], format: nil,
      width: nil, height: nil)
    let text = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
    #expect(text.contains(#""ok":null"#), "\(text)")
  }

  @Test(arguments: ["not a url", "ftp://127.0.0.1:1/a.png", "https://u:p@127.0.0.1:1/a.png", ""])
  func refusesURLsItCannotCheck(url: String) async {
    let check = ReachabilityCheck(pool: FetchTest.pool, sniff: Self.sniffPNG)
    do {
      _ = try await check.check(url)
      Issue.record("checked \(url)")
    } catch {
      #expect(error.kind == .badRequest)
    }
  }
}
