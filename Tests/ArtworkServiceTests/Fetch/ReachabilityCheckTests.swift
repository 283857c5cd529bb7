import Foundation
import Testing

@testable import ArtworkService
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

  static func verdicts(_ report: ReachabilityReport) -> [String: Bool] {
    Dictionary(uniqueKeysWithValues: report.checks.map { ($0.name, $0.ok) })
  }

  @Test func passesEveryRuleButThePrivateAddress() async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck().check("https://127.0.0.1:\(origin.https)/image.png")
    #expect(
      report.checks.map(\.name) == [
        "https", "public_address", "redirects", "tls", "status", "content_type", "size", "format",
      ])
    #expect(Self.verdicts(report).filter { !$0.value }.keys.sorted() == ["public_address"])
    #expect(!report.ok)
    #expect(
      report.check("public_address")?.reason.contains("127.0.0.1 is a loopback address") == true)
    #expect(report.check("format")?.reason == "PNG, 4×3 pixels.")
    #expect(report.format == "png" && report.width == 4 && report.height == 3)
    #expect(report.advice.first?.contains("send image_thumbhash, which everyone sees") == true)
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
      #expect(report.check("public_address")?.ok == false)
      // An address literal is refused as dialled; a name on what it resolves to.
      let reason = report.check("status")?.reason ?? ""
      #expect(
        reason.hasPrefix("Not checked: 127.0.0.1 is a loopback")
          || reason.hasPrefix("Not checked: localhost resolves to 127.0.0.1, a loopback")
          || reason.contains("::1 is the loopback"),
        "\(report.checks)")
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

  @Test func plainHTTPFailsHTTPSAndTLS() async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck().check("http://127.0.0.1:\(origin.http)/image.png")
    #expect(report.check("https")?.ok == false)
    #expect(report.check("tls")?.ok == false)
    #expect(report.check("status")?.ok == true)
    #expect(report.advice.contains("Serve the image over https: phones load only https URLs."))
  }

  @Test func anUntrustedCertificateFailsTLS() async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck(trustTestCA: false)
      .check("https://127.0.0.1:\(origin.https)/image.png")
    let tls = try #require(report.check("tls"))
    #expect(!tls.ok)
    #expect(tls.reason.contains("certificate"), "\(tls.reason)")
    #expect(report.check("status")?.reason.hasPrefix("Not checked") == true)
  }

  @Test func aRedirectToHTTPFailsRedirects() async throws {
    let origin = try await OriginServer.start()
    let hop = "http://127.0.0.1:\(origin.http)/image.png".percentEncodedForQuery
    let report = try await Self.loopbackCheck()
      .check("https://127.0.0.1:\(origin.https)/to?url=\(hop)")
    #expect(report.check("redirects")?.ok == false)
    #expect(report.check("redirects")?.reason.contains("not https") == true)
    #expect(report.check("tls")?.ok == false)
    #expect(report.check("status")?.ok == true)
  }

  /// Each hop's address is judged as a phone would, even where this fetcher may go.
  @Test func judgesEveryRedirectHopAsAPhone() async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck().check(
      "https://127.0.0.1:\(origin.https)/redirect/2")
    let redirects = try #require(report.check("redirects"))
    #expect(!redirects.ok)
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
    #expect(!check.ok)
    #expect(check.reason.contains(words), "\(check.reason)")
  }

  @Test func justUnderTheLimitPassesSize() async throws {
    let origin = try await OriginServer.start()
    let report = try await Self.loopbackCheck()
      .check("https://127.0.0.1:\(origin.https)/chunked-big?size=2000000")
    #expect(report.check("size")?.ok == true)
    #expect(report.check("format")?.ok == false)
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
