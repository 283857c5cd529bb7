import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `POST /v1/check` over HTTP. Only negative verdicts can be reached from tests (a positive one
/// needs a public address); the rules themselves are unit-tested in `ReachabilityCheckTests`.
@Suite struct CheckEndpointTests {
  static let checkNames = [
    "https", "public_address", "redirects", "tls", "status", "content_type", "size", "format",
  ]

  static func checks(_ response: LoopbackHTTPResponse) -> [String: [String: Any]] {
    let list = response.json["checks"] as? [[String: Any]] ?? []
    return Dictionary(
      list.compactMap { check in (check["name"] as? String).map { ($0, check) } },
      uniquingKeysWith: { first, _ in first })
  }

  @Test func aLoopbackHTTPURLFailsHTTPSAndPublicAddress() async throws {
    let service = try await URLSourceFixture.publicOnly.value
    let url = try URLSourceFixture.url("/image.png")
    let report = try await service.post("/v1/check", url: url)
    #expect(report.status == 200, "\(report.text)")
    #expect(report.json["ok"] as? Bool == false)
    #expect(report.string("url") == url)
    let checks = Self.checks(report)
    let names = (report.json["checks"] as? [[String: Any]] ?? []).compactMap {
      $0["name"] as? String
    }
    #expect(names == Self.checkNames)
    for name in ["https", "public_address"] {
      #expect(checks[name]?["ok"] as? Bool == false, "\(name): \(report.text)")
      #expect((checks[name]?["reason"] as? String)?.isEmpty == false, "\(name)")
    }
    let advice = (report.json["advice"] as? [String] ?? []).joined(separator: " ")
    #expect(advice.contains("image_thumbhash"), "\(advice)")
  }

  @Test func aLoopbackHTTPSURLFailsPublicAddressOnly() async throws {
    let service = try await URLSourceFixture.publicOnly.value
    let origin = try URLSourceFixture.origin.get()
    let report = try await service.post(
      "/v1/check", url: "https://127.0.0.1:\(origin.https)/image.png")
    #expect(report.status == 200, "\(report.text)")
    #expect(report.json["ok"] as? Bool == false)
    let checks = Self.checks(report)
    #expect(checks["https"]?["ok"] as? Bool == true, "\(report.text)")
    #expect(checks["public_address"]?["ok"] as? Bool == false)
  }

  /// Through the service: the rules the fetch never reached are `null`, with the reason, and
  /// the advice offers re-hosting because `ARTWORK_PRIVATE_SOURCES` lists the origin (and so
  /// never suggests listing it).
  @Test func aListedPrivateOriginGetsAdviceThatFitsTheConfiguration() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let report = try await service.post(
      "/v1/check", url: "https://127.0.0.1:\(origin.https)/image.png")
    #expect(report.status == 200, "\(report.text)")
    #expect(report.json["ok"] as? Bool == false)
    let checks = Self.checks(report)
    #expect(checks["public_address"]?["ok"] as? Bool == false)
    for name in ["redirects", "tls", "status", "content_type", "size", "format"] {
      #expect(checks[name]?["ok"] is NSNull, "\(name): \(report.text)")
      #expect((checks[name]?["reason"] as? String)?.hasPrefix("Not checked: ") == true, "\(name)")
    }
    #expect(!report.text.contains("ARTWORK_PRIVATE_SOURCES"), "\(report.text)")
    let advice = report.json["advice"] as? [String] ?? []
    #expect(advice.first?.hasSuffix("re-host the image publicly with POST /v1/artwork.") == true)
    #expect(advice.count == 1, "\(advice)")

    // Unlisted, the same URL's advice says what listing it would allow.
    let unlisted = try await URLSourceFixture.publicOnly.value.post(
      "/v1/check", url: "https://127.0.0.1:\(origin.https)/image.png")
    let unlistedAdvice = (unlisted.json["advice"] as? [String] ?? []).joined(separator: " ")
    #expect(unlistedAdvice.contains("in ARTWORK_PRIVATE_SOURCES"), "\(unlistedAdvice)")
  }

  /// A relay's sidecar in Python reads the answer with urllib and json: a name that does not
  /// resolve fails `public_address` as not resolving (never "private"), every rule after it is
  /// `None` (JSON null), and the one piece of advice is about the name.
  @Test func pythonUrllibReadsNullForRulesNotChecked() async throws {
    let service = try await URLSourceFixture.publicOnly.value
    let script = """
      import json, sys, urllib.request
      request = urllib.request.Request(
          sys.argv[1], data=json.dumps({"url": "https://poster.invalid/s02e04.jpg"}).encode(),
          method="POST", headers={"Content-Type": "application/json"})
      with urllib.request.urlopen(request) as answer:
          report = json.load(answer)
      json.dump({
          "status": answer.status,
          "ok": report["ok"],
          "verdicts": {c["name"]: ("null" if c["ok"] is None else c["ok"]) for c in report["checks"]},
          "address": report["checks"][1]["reason"],
          "advice": report["advice"],
      }, sys.stdout)
      """
    let result = try await ServiceProcess.runProgram(
      "python3", ["-c", script, "http://127.0.0.1:\(service.port)/v1/check"])
    #expect(result.status == 0, "\(result.error)")
    let answer = try PythonTools.object(result.output)
    #expect(answer["status"] as? Int == 200)
    #expect(answer["ok"] as? Bool == false)
    let verdicts = answer["verdicts"] as? [String: Any] ?? [:]
    #expect(verdicts["https"] as? Bool == true)
    #expect(verdicts["public_address"] as? Bool == false)
    for name in Self.checkNames.dropFirst(2) {
      #expect(verdicts[name] as? String == "null", "\(name): \(result.output)")
    }
    let address = answer["address"] as? String ?? ""
    #expect(address.hasPrefix("poster.invalid does not resolve"), "\(address)")
    let advice = answer["advice"] as? [String] ?? []
    #expect(advice.count == 1 && advice[0].hasPrefix("Check the host name"), "\(advice)")
    #expect(!result.output.lowercased().contains("private"), "\(result.output)")
  }

  @Test(arguments: [
    "{", "[]", "{}", "{\"url\": 1}", "{\"url\": \"https://a.example/\", \"size\": 64}",
  ])
  func malformedBodiesAre400(body: String) async throws {
    let service = try await URLSourceFixture.publicOnly.value
    let refused = try await service.post("/v1/check", json: body)
    #expect(refused.isProblem(400), "\(body): \(refused.status) \(refused.text)")
  }

  @Test(arguments: ["text/plain", "image/png", "application/x-www-form-urlencoded"])
  func otherContentTypesAre415(type: String) async throws {
    let service = try await URLSourceFixture.publicOnly.value
    let refused = try await service.post(
      "/v1/check", json: "{\"url\": \"https://a.example/\"}", contentType: type)
    #expect(refused.isProblem(415), "\(type): \(refused.status) \(refused.text)")
  }
}
