import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// Sonarr, Radarr and Lidarr bodies: the poster's `remoteUrl`, never `url`; the item as a relay
/// writes it; no artwork for tests, health events and bodies without images.
@Suite struct ArrReaderTests {
  @Test func sonarrDownloadIsTheEpisodeWithItsSeriesPoster() throws {
    let event = try ProviderReading.read(.sonarr, "download")
    #expect(event.event == "Download")
    #expect(
      event.item
        == ProviderItem(
          kind: .episode, title: "Lost", subtitle: "S02E04 - The Constant", year: 2004, season: 2,
          episode: 4))
    #expect(event.shape == .poster)
    #expect(
      event.image == .url("https://artworks.thetvdb.com/banners/posters/73739-2.jpg", fallback: nil)
    )
  }

  @Test func sonarrGrabOfTwoEpisodesNamesBoth() throws {
    let event = try ProviderReading.read(.sonarr, "grab-two-episodes")
    #expect(event.item?.subtitle == "S01E01-E02 - Good News About Hell")
    #expect(event.item?.episode == 1)
  }

  @Test func sonarrSeriesAddIsTheSeries() throws {
    let event = try ProviderReading.read(.sonarr, "series-add")
    #expect(event.item == ProviderItem(kind: .series, title: "The Expanse", year: 2015))
    guard case .url(let url, _) = event.image else {
      Issue.record("no URL: \(event.image)")
      return
    }
    #expect(url.hasSuffix("/banners/posters/280619-1.jpg"))
  }

  /// The LAN `url` (`/MediaCover/...`, behind Sonarr's login) is never taken, even when it is
  /// the only poster field.
  @Test func theLocalURLIsNeverTaken() throws {
    let event = try ProviderReading.read(.sonarr, "url-only")
    #expect(event.image == .none(.noImage))
    #expect(event.item?.title == "Lost")
  }

  @Test func testEventsHaveNoArtworkButAnItem() throws {
    let sonarr = try ProviderReading.read(.sonarr, "test")
    #expect(sonarr.image == .none(.test))
    #expect(sonarr.item?.subtitle == "S01E01 - Test title")
    #expect(try ProviderReading.read(.radarr, "test").image == .none(.test))
    #expect(try ProviderReading.read(.lidarr, "test").image == .none(.test))
  }

  @Test func healthAndUpdatesAreAboutNoItem() throws {
    let health = try ProviderReading.read(.sonarr, "health")
    #expect(health.item == nil && health.image == .none(.noItem) && health.event == "Health")
    let update = try ProviderReading.read(.radarr, "application-update")
    #expect(update.item == nil && update.image == .none(.noItem))
  }

  @Test func bodiesWithoutImagesHaveNone() throws {
    let sonarr = try ProviderReading.read(.sonarr, "v3-download")
    #expect(sonarr.image == .none(.noImage))
    #expect(sonarr.item?.subtitle == "S02E04 - The Constant")
    let radarr = try ProviderReading.read(.radarr, "v3-grab")
    #expect(radarr.image == .none(.noImage))
    #expect(radarr.item == ProviderItem(kind: .movie, title: "Arrival", year: 2016))
  }

  /// TMDB's `original` has no size cap: it is asked for at `w780`.
  @Test func radarrAsksTMDBForW780() throws {
    let event = try ProviderReading.read(.radarr, "download")
    #expect(
      event.image
        == .url("https://image.tmdb.org/t/p/w780/x2FJsf1ElAgr63Y3PNPtJrcmpoe.jpg", fallback: nil))
    #expect(event.shape == .poster)
  }

  @Test func lidarrTakesTheAlbumCoverSquare() throws {
    let event = try ProviderReading.read(.lidarr, "download")
    #expect(
      event.item
        == ProviderItem(kind: .album, title: "OK Computer", subtitle: "Radiohead", year: 1997))
    #expect(event.shape == .square)
    #expect(
      event.image
        == .url("https://artworks.thetvdb.com/lidarr/album/ok-computer-cover.jpg", fallback: nil))
  }

  @Test func lidarrFallsBackToTheArtistPoster() throws {
    let event = try ProviderReading.read(.lidarr, "grab-artist-poster")
    #expect(event.item?.title == "Kid A" && event.item?.year == 2000)
    #expect(
      event.image
        == .url("https://artworks.thetvdb.com/lidarr/artist/radiohead-poster.jpg", fallback: nil))
  }

  /// A body that is not the provider's is a 422 that says what was expected, and which URL an
  /// other *arr's body belongs on.
  @Test func anotherBodyIsRefusedWithWhatWasExpected() throws {
    let radarrBody = ProviderFixtures.text("radarr", "download")
    let refusal = try #require(ProviderReading.refusal(.sonarr, radarrBody))
    #expect(refusal.kind == .unprocessableContent && refusal.kind.status == 422)
    #expect(refusal.detail.contains("Radarr body"), "\(refusal.detail)")
    #expect(refusal.detail.contains("/v1/providers/radarr"))
    for body in ["", "[]", "{\"series\": {}}", "not json", "{\"eventType\": 3.5e999}"] {
      let error = try #require(ProviderReading.refusal(.sonarr, body), "\(body)")
      #expect(error.kind == .unprocessableContent, "\(body)")
      #expect(error.detail.contains("expected Sonarr's webhook JSON"), "\(error.detail)")
    }
  }

  @Test func aRemoteURLThatIsNotWebIsNotTaken() throws {
    let body = """
      {"eventType": "SeriesAdd", "series": {"title": "X", "images": [
        {"coverType": "poster", "remoteUrl": "file:///etc/passwd"},
        {"coverType": "poster", "remoteUrl": "https://example.org/p.jpg"}]}}
      """
    let event = try SonarrReader.read(ProviderInput(body: Array(body.utf8), contentType: nil))
    #expect(event.image == .url("https://example.org/p.jpg", fallback: nil))
  }
}
