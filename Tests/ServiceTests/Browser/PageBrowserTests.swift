import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// The page for people in headless Chromium, as a person uses it (`Fixtures/page_check.py`):
/// the token asked for on a 401, a poster uploaded and one fetched from a loopback origin, both
/// rendered beside their placeholders, the three fields shown as the API answers them, a phone
/// check, a 413 with its detail, no policy violation, and a phone-sized viewport. Saves the
/// screenshots `page.png` and `page-phone.png` to a temporary folder, removed afterwards, or to
/// the folder `ARTWORK_SCREENSHOTS` names, kept: `scripts/refresh-screenshots` copies those to
/// `docs/`, which the README shows. A test run never writes to the work tree.
@Suite(.serialized) struct PageBrowserTests {
  static let token = "page-browser-token-0123456789"
  /// The variable naming the folder that keeps the screenshots.
  static let screenshotsVariable = "ARTWORK_SCREENSHOTS"

  @Test(.timeLimit(.minutes(5))) func aPersonMakesAPosterChecksAURLAndMeetsALimit() async throws {
    let port = ServiceProcess.freePort()
    let originPort = ServiceProcess.freePort()
    let service = "http://127.0.0.1:\(port)"
    let environment = [
      "ARTWORK_LISTEN": "127.0.0.1:\(port)", "ARTWORK_PUBLIC_URL": service,
      "ARTWORK_API_TOKENS": Self.token, "ARTWORK_PRIVATE_SOURCES": "127.0.0.2",
    ]
    let coffee = Fixtures.directory.appendingPathComponent("coffee.jpg").path
    let kept = ProcessInfo.processInfo.environment[Self.screenshotsVariable].map {
      URL(fileURLWithPath: $0, isDirectory: true)
    }
    let screenshots = kept ?? Fixtures.temporaryDirectory("artwork-screenshots")
    try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
    defer { if kept == nil { try? FileManager.default.removeItem(at: screenshots) } }
    let (answerText, output) = try await ServiceHarness.run(environment) { harness in
      // The API's answer for the same upload the page makes (multipart, poster, defaults).
      let answer = try await harness.upload(
        Fixtures.bytes("coffee.jpg"), fields: [("shape", "poster")],
        headers: [("Authorization", "Bearer \(Self.token)")])
      #expect(answer.status == 201, "\(answer.text)")
      let output = try await Browser.run(
        "Tests/ServiceTests/Browser/Fixtures/page_check.py",
        [
          service, Self.token, coffee, String(originPort),
          screenshots.appendingPathComponent("page.png").path,
          screenshots.appendingPathComponent("page-phone.png").path,
        ])
      return (answer.text, output)
    }
    let api = try Browser.object(answerText)
    let seen = try Browser.object(output)
    #expect(seen["title"] as? String == "Artwork")
    #expect(seen["token_panel_at_first"] as? Bool == false)
    // The page offers what the API does by default: a square.
    #expect(seen["default_shape"] as? String == "square")
    #expect((seen["unlabelled"] as? [Any])?.isEmpty == true, "\(seen["unlabelled"] ?? "")")

    // 401 first: the problem, the token field focused, the token kept for the session only.
    let refused = try #require(seen["refused"] as? [String: Any], "\(seen)")
    #expect((refused["text"] as? String)?.contains("Unauthorized (401)") == true, "\(refused)")
    #expect((refused["request_id"] as? String)?.isEmpty == false)
    #expect(seen["token_focused"] as? String == "token-input")
    #expect(seen["token_in_session"] as? Bool == true)

    // The three fields shown are the API's for the same upload, and both images rendered.
    let fields = try #require(seen["fields"] as? [String: Any], "\(seen)")
    #expect(fields.count == 3)
    for key in ["image_url", "image_shape", "image_thumbhash"] {
      #expect(fields[key] as? String == api[key] as? String, "\(key): \(fields) vs \(api)")
    }
    let rendered = try #require(seen["rendered"] as? [[String: Any]], "\(seen)")
    #expect(rendered.count == 2)
    #expect(rendered.first?["width"] as? Int == api["width"] as? Int)
    #expect(rendered.first?["height"] as? Int == api["height"] as? Int)
    for image in rendered {
      #expect((image["width"] as? Int ?? 0) > 0 && (image["height"] as? Int ?? 0) > 0)
      #expect((image["frame"] as? String)?.contains("poster") == true, "\(image)")
      // Framed 2:3, and the placeholder at the same size as the image.
      let shown = image["shown"] as? [Int] ?? []
      #expect(shown.count == 2 && shown[0] * 3 == shown[1] * 2, "\(image)")
      #expect(shown == rendered.first?["shown"] as? [Int])
    }
    #expect(
      (rendered.last?["src"] as? String)?.hasPrefix("/v1/thumbhash/") == true, "\(rendered)")
    #expect((seen["facts"] as? String)?.contains("400 × 600 jpeg") == true, "\(seen)")

    // The hash pasted draws its placeholder, portrait like the poster.
    // The relay's content filled on the page: the hash the API stored, everything else as typed;
    // then an update to a template without an image slot drops the artwork, and says it changed.
    let content = try #require(seen["content"] as? [String: Any], "\(seen)")
    #expect((content["facts"] as? String)?.contains("ready") == true, "\(content)")
    let filled = try #require(content["answer"] as? [String: Any])
    #expect(filled["image_thumbhash"] as? String == api["image_thumbhash"] as? String)
    #expect(filled["image_url"] as? String == api["image_url"] as? String)
    #expect(filled["progress"] as? Double == 0.5)
    let update = try #require(seen["content_update"] as? [String: Any], "\(seen)")
    #expect((update["facts"] as? String)?.contains("true") == true, "\(update)")
    let updated = try #require(update["answer"] as? [String: Any])
    #expect(Set(updated.keys) == ["template", "state", "progress"], "\(updated)")
    #expect(updated["template"] as? String == "alert")

    // Sonarr's Test body pasted into the Providers panel: what it is about, and no artwork.
    let providers = try #require(seen["providers"] as? [String: Any], "\(seen)")
    #expect((providers["facts"] as? String)?.contains(#"none; reason="test""#) == true)
    #expect((providers["facts"] as? String)?.contains("S01E01 - Test title") == true)
    let event = try #require(providers["answer"] as? [String: Any])
    #expect(event["provider"] as? String == "sonarr" && event["event"] as? String == "Test")
    #expect(providers["frame_hidden"] as? Bool == true)

    let decoded = try #require(seen["decoded"] as? [Int], "\(seen)")
    #expect(decoded.count == 2 && decoded[0] > 0 && decoded[1] > decoded[0], "\(decoded)")

    // A URL on a loopback origin that ARTWORK_PRIVATE_SOURCES allows.
    let fromURL = try #require(seen["from_url"] as? [String: Any], "\(seen)")
    #expect((fromURL["image_url"] as? String)?.hasPrefix("\(service)/v1/images/") == true)

    // The phone check: a phone never loads a private address, whatever the service may fetch.
    let check = try #require(seen["check"] as? [String: Any], "\(seen)")
    #expect(check["summary"] as? String == "A phone would not load this image.")
    let rules = try #require(check["rules"] as? [[String: Any]])
    let verdicts = Dictionary(
      rules.map { ($0["rule"] as? String ?? "", $0["ok"] as? Bool ?? true) }
    ) { $1 }
    #expect(verdicts["https"] == false && verdicts["public_address"] == false, "\(rules)")
    #expect(rules.count >= 8, "\(rules)")
    // The rules the refused address stopped show as not checked, not as failures.
    let skipped = rules.filter { $0["skipped"] as? Bool == true }.compactMap {
      $0["rule"] as? String
    }
    #expect(
      skipped == ["redirects", "tls", "status", "content_type", "size", "format"], "\(rules)")
    #expect((check["advice"] as? [String])?.isEmpty == false)

    // The 413, from the head, with its detail and request id.
    let tooLarge = try #require(seen["too_large"] as? [String: Any], "\(seen)")
    let text = tooLarge["text"] as? String ?? ""
    #expect(text.contains("Payload too large (413)"), "\(text)")
    #expect(text.contains("an image may be at most 2,000,000 bytes"), "\(text)")
    #expect((tooLarge["request_id"] as? String)?.count == 32, "\(tooLarge)")

    // Readable at a phone's width: nothing wider than the screen.
    let phone = try #require(seen["phone"] as? [String: Int], "\(seen)")
    #expect(phone["inner"] == 390 && (phone["scroll"] ?? 999) <= 390, "\(phone)")

    // The policy let the page do all this: nothing refused.
    #expect((seen["violations"] as? [String])?.isEmpty == true, "\(seen["violations"] ?? "")")
    let console = seen["console"] as? [String] ?? []
    #expect(
      !console.contains { $0.contains("Content Security Policy") || $0.contains("Refused to") },
      "\(console)")
    for name in ["page.png", "page-phone.png"] {
      let size =
        try FileManager.default.attributesOfItem(
          atPath: screenshots.appendingPathComponent(name).path)[.size] as? Int
      #expect((size ?? 0) > 10_000, "\(name)")
    }
  }
}
