import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// The attack as it was tried: a media server's key in a source URL (Emby's `X-Emby-Token`
/// was published in the public facts). Per application credential, a planted value is sent
/// through every route that takes a URL, and every answer, the public facts, the metrics, every
/// log line and every stored file are crawled for it.
@Suite struct PlantedSecretTests {
  /// One planted credential: the application, its query name, and the query value (the
  /// secret inside it; Emby's authorization value is a quoted list).
  struct Planted: Sendable, CustomStringConvertible {
    let application: String
    let name: String
    let secret: String
    var value: String {
      name == "X-Emby-Authorization" ? "MediaBrowser%20Token%3D%22\(secret)%22" : secret
    }
    var description: String { "\(application) \(name)" }
  }

  static let planted: [Planted] = [
    ("Plex", "X-Plex-Token"), ("Jellyfin", "api_key"), ("Jellyfin", "ApiKey"),
    ("Emby", "X-Emby-Token"), ("Emby", "X-MediaBrowser-Token"),
    ("Emby", "X-Emby-Authorization"), ("Sonarr", "apikey"), ("Radarr", "apikey"),
    ("Lidarr", "apikey"), ("Overseerr", "X-Api-Key"),
  ].map {
    Planted(application: $0.0, name: $0.1, secret: "Pl4nted\($0.0)\(UUID().uuidString.prefix(8))")
  }

  @Test(arguments: planted)
  func aPlantedCredentialLeavesNoTrace(_ planted: Planted) async throws {
    let lines = Locked<[String]>([])
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    let query = "?\(planted.name)=\(planted.value)&n=\(UUID().uuidString.prefix(8))"
    let good = try URLSourceFixture.url("/image.png" + query)
    let missing = try URLSourceFixture.url("/missing.png" + query)
    try await ServiceHarness.run(["ARTWORK_PRIVATE_SOURCES": "127.0.0.1"], logSink: sink) {
      service in
      var answers: [(String, LoopbackHTTPResponse)] = []
      let created = try await service.send(Self.post("/v1/artwork", #"{"url": "\#(good)"}"#))
      #expect(created.status == 201, "\(created.text)")
      answers.append(("POST /v1/artwork", created))
      // The caller's own answer shows its URL, the credential written REDACTED.
      let source = created.json["source"] as? [String: Any]
      #expect((source?["url"] as? String)?.contains("\(planted.name)=REDACTED") == true)
      let id =
        ((created.json["image_url"] as? String) ?? "").split(separator: "/").last?
        .prefix { $0 != "." } ?? ""
      let facts = try await service.get("/v1/images/\(id).json")
      #expect(facts.status == 200, "\(facts.text)")
      answers.append(("GET facts", facts))
      // The public facts carry the host and path only.
      #expect(facts.json["source_url"] as? String == PublicSourceURL.of(good))
      #expect(!facts.text.contains(planted.name), "\(facts.text)")
      answers.append(
        (
          "POST /v1/artwork again",
          try await service.send(Self.post("/v1/artwork", #"{"url": "\#(good)"}"#))
        ))
      answers.append(
        (
          "POST /v1/thumbhash",
          try await service.send(Self.post("/v1/thumbhash", #"{"url": "\#(good)"}"#))
        ))
      let check = try await service.send(Self.post("/v1/check", #"{"url": "\#(good)"}"#))
      #expect((check.json["url"] as? String)?.contains("\(planted.name)=REDACTED") == true)
      answers.append(("POST /v1/check", check))
      answers.append(
        (
          "POST /v1/content",
          try await service.send(
            Self.post(
              "/v1/content", #"{"content": {"image_url": "\#(good)", "image_shape": "poster"}}"#))
        ))
      let failed = try await service.send(Self.post("/v1/artwork", #"{"url": "\#(missing)"}"#))
      #expect(failed.status >= 400, "\(failed.text)")
      answers.append(("POST /v1/artwork, a failing source", failed))
      answers.append(
        (
          "POST /v1/check, a failing source",
          try await service.send(Self.post("/v1/check", #"{"url": "\#(missing)"}"#))
        ))
      answers.append(("GET /metrics", try await service.get("/metrics")))
      for (route, answer) in answers {
        #expect(!answer.text.contains(planted.secret), "\(route): \(answer.text)")
        #expect(
          !answer.headers.contains { $0.1.contains(planted.secret) }, "\(route): \(answer.headers)")
      }
      let log = lines.withLock { $0 }
      #expect(!log.isEmpty)
      #expect(!log.contains { $0.contains(planted.secret) }, "\(log)")
      try Self.expectNo(planted.secret, under: service.storage)
    }
  }

  @Test(arguments: [
    (
      "http://emby.lan:8096/Items/1/Images/Primary?X-Emby-Token=k#f",
      "http://emby.lan:8096/Items/1/Images/Primary"
    ),
    ("https://u:p@host.example/a.jpg?x=1", "https://host.example/a.jpg"),
    ("https://host.example/a@b.jpg", "https://host.example/a@b.jpg"),
    ("https://host.example", "https://host.example"),
  ])
  func publicFactsKeepTheHostAndPathOnly(url: String, expected: String) {
    #expect(PublicSourceURL.of(url) == expected)
  }

  @Test func everyMediaApplicationCredentialIsRedactedByDefault() {
    let secrets = SecretParameters()
    for name in SecretParameters.mediaApplicationNames {
      #expect(secrets.redacted("http://h/i?\(name)=v") == "http://h/i?\(name)=REDACTED")
    }
    for planted in Self.planted {
      #expect(secrets.isSecret(Substring(planted.name)), "\(planted)")
    }
  }

  static func post(_ path: String, _ json: String) -> LoopbackHTTPRequest {
    LoopbackHTTPRequest(
      "POST", path, headers: [("Content-Type", "application/json")], body: .bytes(Array(json.utf8)))
  }

  /// No file under `directory` holds `secret`, in its name or its bytes.
  static func expectNo(_ secret: String, under directory: URL) throws {
    let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
    var count = 0
    while let file = files?.nextObject() as? URL {
      #expect(!file.path.contains(secret))
      guard let data = FileManager.default.contents(atPath: file.path) else { continue }
      count += 1
      #expect(!String(decoding: data, as: UTF8.self).contains(secret), "\(file.path)")
    }
    #expect(count > 0)
  }
}
