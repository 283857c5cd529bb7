import ArtworkCore

/// What a provider's webhook body says, as its reader found it: the event, the item it is
/// about, and where its artwork is (or why there is none).
struct ProviderEvent: Sendable, Equatable {
  /// The provider's canonical name (`overseerr` for Jellyseerr and Seerr).
  var provider: Provider
  /// The event as the application names it (`Download`, `ItemAdded`, `library.new`,
  /// `MEDIA_AVAILABLE`).
  var event: String
  /// The item the event is about; nil for events about no item (health, updates, tests
  /// without one).
  var item: ProviderItem?
  /// Where the artwork comes from.
  var image: ImageSource
  /// The frame the artwork gets: from the item's kind, unless its reader knows better.
  var shape: Shape

  init(
    provider: Provider, event: String, item: ProviderItem?, image: ImageSource,
    shape: Shape? = nil
  ) {
    self.provider = provider
    self.event = event
    self.item = item
    self.image = image
    self.shape = shape ?? item?.kind.shape ?? .square
  }
}

/// Where an event's artwork comes from.
enum ImageSource: Sendable, Equatable {
  /// A URL to fetch (through the address policy, as any source), and the URL to try when the
  /// origin refuses it with a 4xx (TMDB's unlisted `w600_and_h900_bestv2` size, retried at
  /// `w780`).
  case url(String, fallback: String? = nil)
  /// The image itself, sent in the body (Plex's JPEG part), with its declared type.
  case bytes(ArraySlice<UInt8>, contentType: String?)
  /// No artwork, and why: not an error (a test, a health event, a body without images).
  case none(NoArtworkReason)
}

/// Why an event has no artwork: the `reason` of its `Artwork-Status: none`.
enum NoArtworkReason: String, Sendable, Equatable {
  /// The application's "Test" button.
  case test
  /// The event is about no media item (health, application updates, sessions).
  case noItem = "no-item"
  /// The item has no image the body points at (Sonarr v3 and older Radarr, TMDB without a
  /// poster, Plex without its JPEG part).
  case noImage = "no-image"
  /// The image lives on a media server whose address the body does not give (Emby, or a
  /// Jellyfin plugin without its Server URL): add `?server=` to the webhook's URL.
  case noServer = "no-server"
}

/// What an event is about, as a relay writes it in an activity.
struct ProviderItem: Sendable, Equatable {
  enum Kind: String, Sendable, Equatable {
    case movie, series, season, episode, collection, album, track, artist, other

    /// Posters for films and television (an episode's is its series'), square for music and
    /// the rest.
    var shape: Shape {
      switch self {
      case .movie, .series, .season, .episode, .collection: .poster
      case .album, .track, .artist, .other: .square
      }
    }
  }

  var kind: Kind
  /// The series, film, album or artist title.
  var title: String
  /// What narrows it down: `S01E01 - The Sphere`, `Season 2`, an album's artist.
  var subtitle: String?
  var year: Int?
  var season: Int?
  var episode: Int?

  init(
    kind: Kind, title: String, subtitle: String? = nil, year: Int? = nil, season: Int? = nil,
    episode: Int? = nil
  ) {
    self.kind = kind
    self.title = title
    self.subtitle = subtitle
    self.year = year
    self.season = season
    self.episode = episode
  }

  /// `S01E01`, `S01E01-E03`, with ` - title` when there is one.
  static func episodeLabel(season: Int, episodes: [Int], title: String?) -> String {
    func two(_ n: Int) -> String { n < 10 && n >= 0 ? "0\(n)" : String(n) }
    var label = "S\(two(season))"
    if let first = episodes.first {
      label += "E\(two(first))"
      if let last = episodes.last, last != first { label += "-E\(two(last))" }
    }
    if let title, !title.isEmpty { label += " - \(title)" }
    return label
  }
}
