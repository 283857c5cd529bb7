import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// Emby and Plex end to end: Emby's multipart `data` field with the server named in the URL,
/// Plex's multipart as curl builds it (`-F`), its JPEG rendered and nothing fetched.
@Suite struct MediaServerProviderTests {
  @Test func embyMultipartWithTheServerInTheURL() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let (hosts, prefix) = try ProviderService.hosts()
    let server = try #require(hosts["SERVER"])
    let (body, type) = ProviderFixtures.multipart([
      ("data", nil, ProviderFixtures.body("emby", "library-new-episode"), nil)
    ])
    let answer = try await ProviderService.post(
      service, "emby", body, contentType: type,
      query: "?server=" + server.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.header("Artwork-Status") == "ready")
    #expect(answer.item["subtitle"] as? String == "S02E04 - The Constant")
    #expect(answer.artwork["image_shape"] as? String == "poster")
    #expect(
      try origin.requests(prefix + "/Items/7100/Images/Primary?maxHeight=1200&quality=90") == 1)

    // Without ?server=, there is nowhere to ask: 200, none.
    let nowhere = try await ProviderService.post(service, "emby", body, contentType: type)
    #expect(nowhere.status == 200)
    #expect(nowhere.header("Artwork-Status") == #"none; reason="no-server""#)
  }

  @Test func plexMultipartFromCurl() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let payload = ProviderFixtures.text("plex", "media-play-episode")
    let run = try await ServiceProcess.runProgram(
      "curl",
      [
        "-s", "-D", "-", "-F", "payload=" + payload, "-F",
        "thumb=@" + Fixtures.path("coffee.jpg") + ";type=image/jpeg",
        "http://127.0.0.1:\(service.port)/v1/providers/plex",
      ])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.hasPrefix("HTTP/1.1 200"), "\(run.output)")
    #expect(run.output.contains("Artwork-Status: ready"), "\(run.output)")
    #expect(run.output.contains(#""subtitle":"S02E04 - The Constant""#))
    #expect(run.output.contains(#""image_shape":"poster""#))
    // Metadata.thumb is a path on the Plex server: never fetched. (Per target: the shared
    // origin serves the suites running beside this one.)
    #expect(try !origin.targets().requests.keys.contains { $0.hasPrefix("/library/") })
  }
}
