import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// Media servers put credentials in image URLs. Their values never reach a log, a problem, a
/// `/v1/check` reason or a stored record.
@Suite struct SecretParameterTests {
  static let secret = "S3cr3tValue0123456789"

  @Test(arguments: [
    (
      "https://jf.example/Items/1/Images/Primary?api_key=S3cr3t&tag=x",
      "https://jf.example/Items/1/Images/Primary?api_key=REDACTED&tag=x"
    ),
    ("https://jf.example/a.jpg?ApiKey=S3cr3t", "https://jf.example/a.jpg?ApiKey=REDACTED"),
    (
      "http://sonarr:8989/MediaCover/1/poster.jpg?apikey=abc",
      "http://sonarr:8989/MediaCover/1/poster.jpg?apikey=REDACTED"
    ),
    (
      "https://plex.example/photo?X-Plex-Token=t0k&width=300",
      "https://plex.example/photo?X-Plex-Token=REDACTED&width=300"
    ),
    (
      "https://s.example/a.jpg?sig=1&signature=2&key=3#frag",
      "https://s.example/a.jpg?sig=REDACTED&signature=REDACTED&key=REDACTED#frag"
    ),
    (
      "https://s.example/a.jpg?api%5Fkey=x&keyword=y",
      "https://s.example/a.jpg?api%5Fkey=REDACTED&keyword=y"
    ),
    ("https://s.example/a.jpg?token=&token", "https://s.example/a.jpg?token=REDACTED&token"),
    ("https://s.example/a.jpg", "https://s.example/a.jpg"),
    ("https://s.example/a.jpg?width=3", "https://s.example/a.jpg?width=3"),
  ])
  func secretValuesAreRedactedInURLs(url: String, expected: String) {
    #expect(SecretParameters().redacted(url) == expected)
  }

  @Test func namesCanBeAdded() {
    let secrets = SecretParameters(adding: ["Session"])
    #expect(
      secrets.redacted("https://a.example/i?session=1&s=2")
        == "https://a.example/i?session=REDACTED&s=2")
    #expect(
      SecretParameters().redacted("https://a.example/i?session=1")
        == "https://a.example/i?session=1")
    let config = try? ServiceConfig(environment: ["ARTWORK_SECRET_PARAMS": "session, my_key"])
    #expect(config?.secretParameters.isSecret("MY_KEY") == true)
    #expect((try? ServiceConfig(environment: ["ARTWORK_SECRET_PARAMS": "a=b"])) == nil)
  }

  @Test func secretValuesAreRedactedInText() {
    let secrets = SecretParameters()
    let text = "The source redirects in a loop (back to \"http://h/a?x=1&api_key=abc123\")."
    #expect(
      secrets.redactedText(text)
        == "The source redirects in a loop (back to \"http://h/a?x=1&api_key=REDACTED\").")
    #expect(secrets.redactedText("no secrets here: a=b") == "no secrets here: a=b")
    #expect(secrets.redactedText("token=abc== rest") == "token=REDACTED rest")
    // A URL inside another URL's query, encoded once more.
    #expect(
      secrets.redactedText("http://h/to?url=%2Fa.png%3Fw%3D1%26token%3Dabc%26x%3D2")
        == "http://h/to?url=%2Fa.png%3Fw%3D1%26token%3DREDACTED%26x%3D2")
  }

  /// A loop back to the very URL, query included: the problem and the log quote it, redacted;
  /// the stored failure record holds no secret either.
  @Test func aFailureQuotingTheURLCarriesNoSecret() async throws {
    let lines = Locked<[String]>([])
    let url = try URLSourceFixture.url("/same?api_key=\(Self.secret)" + URLSourceFixture.unique())
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    try await ServiceHarness.run(["ARTWORK_PRIVATE_SOURCES": "127.0.0.1"], logSink: sink) {
      service in
      let refused = try await service.send(Self.json(url))
      #expect(refused.status == 502, "\(refused.text)")
      #expect(refused.text.contains("api_key=REDACTED"), "\(refused.text)")
      #expect(!refused.text.contains(Self.secret))
      // Answered again from the remembered failure: still redacted.
      let again = try await service.send(Self.json(url))
      #expect(again.status == 502 && !again.text.contains(Self.secret))
      let log = lines.withLock { $0.joined(separator: "\n") }
      #expect(log.contains("REDACTED") && !log.contains(Self.secret), "\(log)")
      try Self.expectNoSecret(under: service.storage)
    }
  }

  /// A success stores its record under a keyed hash, with the URL redacted.
  @Test func aStoredRecordKeepsNoSecret() async throws {
    let url = try URLSourceFixture.url(
      "/image.png?X-Plex-Token=\(Self.secret)&n=" + URLSourceFixture.unique())
    try await ServiceHarness.run(["ARTWORK_PRIVATE_SOURCES": "127.0.0.1"]) { service in
      let created = try await service.send(Self.json(url))
      #expect(created.status == 201, "\(created.text)")
      let records = try Self.expectNoSecret(under: service.storage)
      #expect(records.contains { $0.contains("X-Plex-Token=REDACTED") }, "\(records)")
    }
  }

  /// `/v1/check` quotes the URL in its reasons: redacted there.
  @Test func checkReasonsCarryNoSecret() async throws {
    let url = try URLSourceFixture.url("/image.png?token=\(Self.secret)")
    try await ServiceHarness.run(["ARTWORK_PRIVATE_SOURCES": "127.0.0.1"]) { service in
      let report = try await service.send(
        LoopbackHTTPRequest(
          "POST", "/v1/check", headers: [("Content-Type", "application/json")],
          body: .bytes(Array(#"{"url": "\#(url)"}"#.utf8))))
      #expect(report.status == 200, "\(report.text)")
      #expect(report.text.contains("token=REDACTED"), "\(report.text)")
      // The caller's own URL is echoed redacted too, as the reasons are.
      #expect((report.json["url"] as? String)?.contains("token=REDACTED") == true)
      #expect(!report.text.contains(Self.secret))
      let checks = (report.json["checks"] as? [[String: Any]]) ?? []
      #expect(!checks.contains { ($0["reason"] as? String)?.contains(Self.secret) == true })
    }
  }

  static func json(_ url: String) -> LoopbackHTTPRequest {
    LoopbackHTTPRequest(
      "POST", "/v1/artwork", headers: [("Content-Type", "application/json")],
      body: .bytes(Array(#"{"url": "\#(url)", "size": 64}"#.utf8)))
  }

  /// Every file under `directory`, read: none holds the secret. Answers the record files' text.
  @discardableResult
  static func expectNoSecret(under directory: URL) throws -> [String] {
    var records: [String] = []
    let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard let data = FileManager.default.contents(atPath: file.path) else { continue }
      let text = String(decoding: data, as: UTF8.self)
      #expect(!text.contains(secret), "\(file.path)")
      #expect(!file.lastPathComponent.contains(secret))
      if file.path.contains("/records/") { records.append(text) }
    }
    return records
  }
}
