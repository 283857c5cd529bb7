import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// Overseerr's default JSON payload (Jellyseerr and Seerr send the same).
@Suite struct OverseerrReaderTests {
  @Test func aMovieIsItsTitleYearAndPoster() throws {
    let event = try ProviderReading.read(.overseerr, "media-available-movie")
    #expect(event.event == "MEDIA_AVAILABLE")
    #expect(event.item == ProviderItem(kind: .movie, title: "Arrival", year: 2016))
    #expect(event.shape == .poster)
    #expect(
      event.image
        == .url(
          "https://image.tmdb.org/t/p/w600_and_h900_bestv2/x2FJsf1ElAgr63Y3PNPtJrcmpoe.jpg",
          fallback: "https://image.tmdb.org/t/p/w780/x2FJsf1ElAgr63Y3PNPtJrcmpoe.jpg"))
  }

  @Test func aSeriesRequest() throws {
    let event = try ProviderReading.read(.overseerr, "media-pending-tv")
    #expect(event.item == ProviderItem(kind: .series, title: "Severance", year: 2022))
  }

  /// TMDB without a poster: `...bestv2null`, which names no image; nothing is fetched.
  @Test func aNullPosterIsNoImage() throws {
    let event = try ProviderReading.read(.overseerr, "null-poster")
    #expect(event.image == .none(.noImage))
    #expect(event.item?.title == "An Obscure Short")
  }

  @Test func theTestNotificationHasNoArtwork() throws {
    let event = try ProviderReading.read(.overseerr, "test")
    #expect(event.event == "TEST_NOTIFICATION" && event.image == .none(.test) && event.item == nil)
  }

  @Test func theAliasesReadTheSame() throws {
    #expect(try Provider.named("jellyseerr") == .overseerr)
    #expect(try Provider.named("Seerr") == .overseerr)
  }

  @Test func aBodyWithoutNotificationTypeIsRefused() throws {
    let sonarr = ProviderFixtures.text("sonarr", "download")
    let error = try #require(ProviderReading.refusal(.overseerr, sonarr))
    #expect(error.kind == .unprocessableContent)
    #expect(error.detail.contains("notification_type"))
  }

  @Test func titlesAndYears() {
    #expect(OverseerrReader.titleAndYear("Arrival (2016)") == ("Arrival", 2016))
    #expect(OverseerrReader.titleAndYear("Blade Runner 2049 (2017)") == ("Blade Runner 2049", 2017))
    #expect(OverseerrReader.titleAndYear("M*A*S*H") == ("M*A*S*H", nil))
    #expect(OverseerrReader.titleAndYear("(2016)") == ("(2016)", 2016))
    #expect(OverseerrReader.titleAndYear("Odd (abcd)") == ("Odd (abcd)", nil))
  }

  @Test func tmdbURLs() {
    #expect(TMDBImage.isMissing("https://image.tmdb.org/t/p/w600_and_h900_bestv2null"))
    #expect(TMDBImage.isMissing("https://image.tmdb.org/t/p/w500/null"))
    #expect(TMDBImage.isMissing("https://image.tmdb.org/t/p/w500/"))
    #expect(!TMDBImage.isMissing("https://image.tmdb.org/t/p/w500/abc.jpg"))
    #expect(!TMDBImage.isMissing("https://example.org/nullable.jpg"))
    #expect(
      TMDBImage.sized("https://image.tmdb.org/t/p/original/a.jpg")
        == "https://image.tmdb.org/t/p/w780/a.jpg")
    #expect(TMDBImage.sized("https://example.org/a.jpg") == "https://example.org/a.jpg")
    #expect(TMDBImage.fallback(for: "https://example.org/a.jpg") == nil)
    // Only the size is a size: a later `/t/p/original/` is part of the file's name (a fuzz
    // finding, Fuzz/findings/providers/crash-2725...).
    #expect(
      TMDBImage.sized("https://image.tmdb.org/t/p/original/a.jpg.x/t/p/original/b.jpg")
        == "https://image.tmdb.org/t/p/w780/a.jpg.x/t/p/original/b.jpg")
  }
}
