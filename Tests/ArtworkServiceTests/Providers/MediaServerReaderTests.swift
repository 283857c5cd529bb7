import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// Jellyfin's plugin ("Send All Properties", as text/plain), Emby (JSON or a multipart `data`
/// field) and Plex (a multipart `payload` and its JPEG).
@Suite struct MediaServerReaderTests {
  static let primary = "/Images/Primary?maxHeight=1200&quality=90"

  @Test func jellyfinMovieAsTextPlain() throws {
    let event = try ProviderReading.read(.jellyfin, "item-added-movie", contentType: "text/plain")
    #expect(event.event == "ItemAdded")
    #expect(event.item == ProviderItem(kind: .movie, title: "Arrival", year: 2016))
    #expect(
      event.image
        == .url("http://192.168.1.20:8096/Items/5d3b0c4e8a1f47a2b6e9d0c1f2a3b4c5" + Self.primary))
  }

  /// An episode's own Primary image is a 16:9 still: the series' poster is taken.
  @Test func jellyfinEpisodeTakesTheSeriesPoster() throws {
    let event = try ProviderReading.read(.jellyfin, "item-added-episode", contentType: "text/plain")
    #expect(
      event.item
        == ProviderItem(
          kind: .episode, title: "Lost", subtitle: "S02E04 - The Constant", year: 2004, season: 2,
          episode: 4))
    #expect(event.shape == .poster)
    #expect(
      event.image
        == .url("http://192.168.1.20:8096/Items/1c2d3e4f5a6b47c8d9e0f1a2b3c4d5e6" + Self.primary))
  }

  @Test func jellyfinSeasonAlbumAndTrack() throws {
    let season = try ProviderReading.read(.jellyfin, "item-added-season")
    #expect(season.item?.subtitle == "Season 2" && season.item?.title == "Lost")
    guard case .url(let url, _) = season.image else { throw ProviderTestFailure.noURL }
    #expect(url.contains("/Items/1c2d3e4f5a6b47c8d9e0f1a2b3c4d5e6/"))
    let album = try ProviderReading.read(.jellyfin, "item-added-album")
    #expect(album.shape == .square && album.item?.subtitle == "Radiohead")
    let track = try ProviderReading.read(.jellyfin, "playback-start-audio")
    #expect(track.shape == .square && track.item?.kind == .track && track.event == "PlaybackStart")
  }

  @Test func jellyfinWithoutItemOrServer() throws {
    let generic = try ProviderReading.read(.jellyfin, "generic")
    #expect(generic.item == nil && generic.image == .none(.noItem))
    let body =
      #"{"NotificationType": "ItemAdded", "ItemId": "abc", "ItemType": "Movie", "Name": "A"}"#
    let event = try JellyfinReader.read(ProviderInput(body: Array(body.utf8), contentType: nil))
    #expect(event.image == .none(.noServer))
    // The webhook's URL may give the server.
    let given = try JellyfinReader.read(
      ProviderInput(body: Array(body.utf8), contentType: nil, server: "https://jf.example.org/"))
    #expect(given.image == .url("https://jf.example.org/Items/abc" + Self.primary))
  }

  /// Nothing from the body changes the image's path: an id with anything but letters, digits
  /// and `-` names no image; the plugin's scheme-less default server gets `http://`.
  @Test func idsAndServers() {
    #expect(MediaServerImage.source(server: "x", id: "../../System/Info") == .none(.noImage))
    #expect(MediaServerImage.source(server: "x", id: "a?b") == .none(.noImage))
    #expect(MediaServerImage.source(server: "x", id: "") == .none(.noImage))
    #expect(MediaServerImage.base("localhost:8096") == "http://localhost:8096")
    #expect(
      MediaServerImage.base(" https://jf.example.org/jellyfin/?x=1 ")
        == "https://jf.example.org/jellyfin")
    #expect(MediaServerImage.base("ftp://x") == nil)
    #expect(MediaServerImage.base("") == nil)
  }

  @Test func embyEpisodeNeedsTheServerFromTheURL() throws {
    let without = try ProviderReading.read(.emby, "library-new-episode")
    #expect(without.image == .none(.noServer))
    #expect(without.item?.subtitle == "S02E04 - The Constant")
    let event = try ProviderReading.read(
      .emby, "library-new-episode", server: "http://emby.local:8096")
    #expect(event.image == .url("http://emby.local:8096/Items/7100" + Self.primary))
    #expect(try ProviderReading.read(.emby, "test").image == .none(.test))
  }

  @Test func embyAsAMultipartDataField() throws {
    let json = ProviderFixtures.body("emby", "library-new-movie")
    let (body, type) = ProviderFixtures.multipart([("data", nil, json, nil)])
    let event = try EmbyReader.read(
      ProviderInput(body: body, contentType: type, server: "http://emby.local:8096"))
    #expect(event.item == ProviderItem(kind: .movie, title: "Arrival", year: 2016))
    #expect(event.image == .url("http://emby.local:8096/Items/8123" + Self.primary))
    let (other, otherType) = ProviderFixtures.multipart([("payload", nil, json, nil)])
    let error = try #require(
      ProviderReading.refusal(.emby, String(decoding: other, as: UTF8.self), contentType: otherType)
    )
    #expect(error.kind == .unprocessableContent && error.detail.contains("\"data\""))
  }

  /// Plex's JPEG part is the artwork; `Metadata.thumb` is never a source.
  @Test func plexUsesItsJPEGPart() throws {
    let payload = ProviderFixtures.body("plex", "library-new-movie")
    let jpeg = Fixtures.bytes("coffee.jpg")
    let (body, type) = ProviderFixtures.multipart([
      ("payload", nil, payload, nil), ("thumb", "image/jpeg", jpeg, "thumb.jpg"),
    ])
    let event = try PlexReader.read(ProviderInput(body: body, contentType: type))
    #expect(event.event == "library.new")
    #expect(event.item == ProviderItem(kind: .movie, title: "Arrival", year: 2016))
    guard case .bytes(let bytes, let declared) = event.image else {
      throw ProviderTestFailure.noBytes
    }
    #expect(Array(bytes) == jpeg && declared == "image/jpeg")
  }

  @Test func plexWithoutItsJPEGHasNoArtwork() throws {
    let payload = ProviderFixtures.body("plex", "media-play-episode")
    let (body, type) = ProviderFixtures.multipart([("payload", nil, payload, nil)])
    let event = try PlexReader.read(ProviderInput(body: body, contentType: type))
    #expect(event.image == .none(.noImage))
    #expect(
      event.item
        == ProviderItem(
          kind: .episode, title: "Lost", subtitle: "S02E04 - The Constant", year: 2008, season: 2,
          episode: 4))
    // Pasted as bare JSON (the page), it reads the same.
    #expect(try ProviderReading.read(.plex, "media-play-episode").item == event.item)
    let backup = try ProviderReading.read(.plex, "admin-backup")
    #expect(backup.item == nil && backup.image == .none(.noItem))
  }

  @Test func plexRefusesWhatIsNotItsWebhook() throws {
    let jellyfin = ProviderFixtures.text("jellyfin", "item-added-movie")
    let error = try #require(ProviderReading.refusal(.plex, jellyfin))
    #expect(error.kind == .unprocessableContent && error.detail.contains("payload"))
    let broken = try #require(
      ProviderReading.refusal(.plex, "--x\r\nnope", contentType: "multipart/form-data; boundary=x"))
    #expect(broken.kind == .unprocessableContent)
  }

  @Test func unknownProvidersAreA404ListingTheKnownOnes() throws {
    do {
      _ = try Provider.named("sickbeard")
      Issue.record("sickbeard is not a provider")
    } catch {
      #expect(error.kind == .notFound)
      for name in [
        "sonarr", "radarr", "lidarr", "jellyfin", "emby", "overseerr", "jellyseerr", "seerr",
        "plex",
      ] {
        #expect(error.detail.contains(name), "\(name)")
      }
    }
  }
}

enum ProviderTestFailure: Error {
  case noURL, noBytes
}
