import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `POST /v1/providers/{provider}` with the bodies the applications send, against loopback
/// stand-ins for TheTVDB, TMDB and a media server: the artwork hosted and framed, the item
/// named, events without artwork answered 200, failures reported and never a 4xx.
@Suite struct ProviderEndpointTests {
  /// Grab, Download, Import of one episode: the series poster's `remoteUrl` fetched once,
  /// framed as a poster, and the same artwork every time.
  @Test func sonarrDownloadHostsTheSeriesPosterOnce() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let (hosts, prefix) = try ProviderService.hosts()
    let body = ProviderFixtures.body("sonarr", "download", hosts: hosts)
    let answer = try await ProviderService.post(service, "sonarr", body)
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.header("Artwork-Status") == "ready")
    #expect(answer.json["provider"] as? String == "sonarr")
    #expect(answer.json["event"] as? String == "Download")
    #expect(answer.item["kind"] as? String == "episode")
    #expect(answer.item["title"] as? String == "Lost")
    #expect(answer.item["subtitle"] as? String == "S02E04 - The Constant")
    #expect(answer.item["year"] as? Int == 2004)
    let artwork = answer.artwork
    #expect(Set(artwork.keys) == ["image_url", "image_shape", "image_thumbhash"])
    #expect(artwork["image_shape"] as? String == "poster")
    let url = try #require(artwork["image_url"] as? String)
    #expect(url.hasPrefix("http://127.0.0.1:9/v1/images/"))
    #expect((artwork["image_thumbhash"] as? String)?.count ?? 0 > 20)
    let poster = prefix + "/banners/posters/73739-2.jpg"
    #expect(try origin.requests(poster) == 1)

    // The same series again (Import after Download): no new fetch, the same artwork.
    let again = try await ProviderService.post(service, "sonarr", body)
    #expect(again.artwork["image_url"] as? String == url)
    #expect(again.header("Artwork-Status") == "ready")
    #expect(try origin.requests(poster) == 1)
    // What /v1/artwork makes of the same URL is the same image.
    let direct = try await service.post(
      "/v1/artwork", url: try URLSourceFixture.url(poster), options: ["shape": "poster"])
    #expect(direct.string("image_url") == url)
  }

  /// TMDB's `original` is over 2 MB: `w780` is fetched instead, and `original` never.
  @Test func radarrFetchesW780NeverOriginal() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let (hosts, prefix) = try ProviderService.hosts()
    let answer = try await ProviderService.post(
      service, "radarr", ProviderFixtures.body("radarr", "download", hosts: hosts))
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.header("Artwork-Status") == "ready")
    #expect(
      answer.item["kind"] as? String == "movie" && answer.item["title"] as? String == "Arrival")
    #expect(answer.artwork["image_shape"] as? String == "poster")
    #expect(try origin.requests(prefix + "/t/p/w780/x2FJsf1ElAgr63Y3PNPtJrcmpoe.jpg") == 1)
    #expect(try origin.requests(prefix + "/t/p/original/x2FJsf1ElAgr63Y3PNPtJrcmpoe.jpg") == 0)
    // The stand-in's original is over the source limit: what fetching it would have been.
    let original = try await service.post(
      "/v1/artwork",
      url: try URLSourceFixture.url(prefix + "/t/p/original/x2FJsf1ElAgr63Y3PNPtJrcmpoe.jpg"))
    #expect(original.status == 413 || original.status == 422, "\(original.text)")
  }

  /// Overseerr's `w600_and_h900_bestv2` refused by TMDB: `w780` is tried, once.
  @Test func overseerrRetriesAtW780OnARefusal() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let (hosts, prefix) = try ProviderService.hosts()
    let body = ProviderFixtures.body("overseerr", "media-pending-tv", hosts: hosts)
    let answer = try await ProviderService.post(service, "jellyseerr", body)
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.header("Artwork-Status") == "ready")
    #expect(answer.json["provider"] as? String == "overseerr")
    #expect(answer.item["kind"] as? String == "series" && answer.item["year"] as? Int == 2022)
    let file = "missing-lPHgCyTbRB2LVAB4YF6Z5RrNFvI.jpg"
    #expect(try origin.requests(prefix + "/t/p/w600_and_h900_bestv2/" + file) == 1)
    #expect(try origin.requests(prefix + "/t/p/w780/" + file) == 1)
    // Remembered both ways: the next notification asks nobody.
    let again = try await ProviderService.post(service, "overseerr", body)
    #expect(again.artwork["image_url"] as? String == answer.artwork["image_url"] as? String)
    #expect(try origin.requests(prefix + "/t/p/w600_and_h900_bestv2/" + file) == 1)
    #expect(try origin.requests(prefix + "/t/p/w780/" + file) == 1)
  }

  /// The Test button of each application: 200, an empty artwork, `none; reason="test"`.
  @Test(arguments: ["sonarr", "radarr", "lidarr", "overseerr", "emby"])
  func testEventsAre200WithoutArtwork(provider: String) async throws {
    let service = try await URLSourceFixture.allowing.value
    let answer = try await ProviderService.post(
      service, provider, ProviderFixtures.body(provider, "test"))
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.header("Artwork-Status") == #"none; reason="test""#)
    #expect(answer.artwork.isEmpty && answer.json["artwork"] != nil)
    #expect(answer.json["event"] as? String != nil)
  }

  /// No image in the body (v3, a TMDB `null` poster, a health event): 200, nothing fetched.
  @Test func eventsWithoutImagesAre200() async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let (hosts, prefix) = try ProviderService.hosts()
    let cases: [(String, String, String)] = [
      ("sonarr", "v3-download", "no-image"), ("radarr", "v3-grab", "no-image"),
      ("overseerr", "null-poster", "no-image"), ("sonarr", "health", "no-item"),
      ("radarr", "application-update", "no-item"), ("jellyfin", "generic", "no-item"),
    ]
    for (provider, name, reason) in cases {
      let answer = try await ProviderService.post(
        service, provider, ProviderFixtures.body(provider, name, hosts: hosts))
      #expect(answer.status == 200, "\(name): \(answer.text)")
      #expect(answer.header("Artwork-Status") == "none; reason=\"\(reason)\"", "\(name)")
      #expect(answer.artwork.isEmpty, "\(name)")
    }
    #expect(try origin.counts().requests.keys.filter { $0.hasPrefix(prefix) }.isEmpty)
  }

  /// A failed fetch is a 200 with `failed` and the reason: a webhook sender disables a hook
  /// that answers errors.
  @Test func aFailedFetchIsA200() async throws {
    let service = try await URLSourceFixture.allowing.value
    let (hosts, _) = try ProviderService.hosts()
    var text = ProviderFixtures.text("radarr", "download", hosts: hosts)
    text = text.replacingOccurrences(of: "/t/p/original/x2FJ", with: "/t/p/original/gone-x2FJ")
    let answer = try await ProviderService.post(service, "radarr", Array(text.utf8))
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.header("Artwork-Status") == #"failed; reason="source-not-available""#)
    #expect(answer.artwork.isEmpty)
    #expect(answer.item["title"] as? String == "Arrival")

    // A private media server that is not allowed: refused by the address policy.
    let strict = try await URLSourceFixture.publicOnly.value
    let jellyfin = try await ProviderService.post(
      strict, "jellyfin", ProviderFixtures.body("jellyfin", "item-added-movie", hosts: hosts),
      contentType: "text/plain")
    #expect(jellyfin.status == 200, "\(jellyfin.text)")
    #expect(jellyfin.header("Artwork-Status") == #"failed; reason="forbidden-address""#)
  }

  /// `Prefer: wait` as on /v1/content: a slow origin answers `pending` within the wait, and
  /// the work goes on.
  @Test func aSlowOriginIsPendingWithinTheWait() async throws {
    let service = try await URLSourceFixture.allowing.value
    let slow = try URLSourceFixture.url("/slow.jpg" + URLSourceFixture.unique() + "&delay=3")
    let body =
      #"{"eventType":"MovieAdded","movie":{"title":"Slow","year":2001,"images":[{"coverType":"poster","url":"/MediaCover/1/poster.jpg","remoteUrl":"\#(slow)"}]}}"#
    let first = try await ProviderService.post(
      service, "radarr", Array(body.utf8), headers: [("Prefer", "wait=1")])
    #expect(first.status == 200, "\(first.text)")
    #expect(first.header("Artwork-Status") == "pending")
    #expect(first.header("Preference-Applied") == "wait=1")
    #expect(first.artwork.isEmpty)
    let later = try await ProviderService.post(
      service, "radarr", Array(body.utf8), headers: [("Prefer", "wait=20")])
    #expect(later.header("Artwork-Status") == "ready", "\(later.text)")
    #expect(later.artwork["image_shape"] as? String == "poster")
  }

  /// Jellyfin's plugin posts text/plain; the episode gets its series' poster from the server.
  @Test(arguments: RelayClient.all)
  func jellyfinTextPlainThroughRealClients(client: RelayClient) async throws {
    let service = try await URLSourceFixture.allowing.value
    let origin = try URLSourceFixture.origin.get()
    let (hosts, prefix) = try ProviderService.hosts(#function + client.name)
    let answer = try await client.send(
      "POST", "http://127.0.0.1:\(service.port)/v1/providers/jellyfin",
      headers: ["Content-Type": "text/plain; charset=utf-8"],
      body: ProviderFixtures.text("jellyfin", "item-added-episode", hosts: hosts))
    #expect(answer.status == 200, "\(answer.body)")
    #expect(answer.headers["artwork-status"] == "ready")
    let item = answer.json["item"] as? [String: Any] ?? [:]
    #expect(item["subtitle"] as? String == "S02E04 - The Constant")
    #expect((answer.json["artwork"] as? [String: Any])?["image_shape"] as? String == "poster")
    let query = "/Images/Primary?maxHeight=1200&quality=90"
    #expect(try origin.requests(prefix + "/Items/1c2d3e4f5a6b47c8d9e0f1a2b3c4d5e6" + query) == 1)
    #expect(try origin.requests(prefix + "/Items/9a8b7c6d5e4f40312233445566778899" + query) == 0)
  }

  /// Plex's JPEG part is rendered as an upload: nothing is fetched.
  @Test func plexMultipartUsesItsJPEG() async throws {
    let service = try await URLSourceFixture.allowing.value
    let (body, type) = ProviderFixtures.multipart([
      ("payload", nil, ProviderFixtures.body("plex", "library-new-movie"), nil),
      ("thumb", "image/jpeg", Fixtures.bytes("coffee.jpg"), "thumb.jpg"),
    ])
    let answer = try await ProviderService.post(service, "plex", body, contentType: type)
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.header("Artwork-Status") == "ready")
    #expect(answer.json["event"] as? String == "library.new")
    #expect(answer.artwork["image_shape"] as? String == "poster")
    let upload = try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/artwork?shape=poster", headers: [("Content-Type", "image/jpeg")],
        body: .bytes(Fixtures.bytes("coffee.jpg"))))
    #expect(upload.string("image_url") == answer.artwork["image_url"] as? String)
  }

  @Test func anUnknownProviderIsA404ListingTheKnownOnes() async throws {
    let service = try await URLSourceFixture.allowing.value
    let answer = try await ProviderService.post(service, "sickbeard", Array("{}".utf8))
    #expect(answer.isProblem(404), "\(answer.text)")
    let detail = answer.string("detail") ?? ""
    for name in ["sonarr", "radarr", "lidarr", "jellyfin", "emby", "overseerr", "plex"] {
      #expect(detail.contains(name), "\(detail)")
    }
  }

  @Test func anotherApplicationsBodyIsA422() async throws {
    let service = try await URLSourceFixture.allowing.value
    let answer = try await ProviderService.post(
      service, "sonarr", ProviderFixtures.body("radarr", "download"))
    #expect(answer.isProblem(422), "\(answer.text)")
    #expect(answer.string("detail")?.contains("/v1/providers/radarr") == true)
    let garbage = try await ProviderService.post(service, "jellyfin", Array("hello".utf8))
    #expect(garbage.isProblem(422))
    #expect(garbage.string("detail")?.contains("Send All Properties") == true)
    let option = try await ProviderService.post(
      service, "sonarr", ProviderFixtures.body("sonarr", "test"), query: "?shape=circle")
    #expect(option.isProblem(400), "\(option.text)")
  }

  @Test func aWebhookBodyOverItsLimitIs413() async throws {
    let service = try await URLSourceFixture.allowing.value
    let big = [UInt8](repeating: 0x20, count: ProviderHandler.webhookBodyBytes + 1)
    let answer = try await ProviderService.post(service, "sonarr", big)
    #expect(answer.isProblem(413), "\(answer.text)")
    #expect(answer.string("detail")?.contains("Sonarr") == true)
  }
}
