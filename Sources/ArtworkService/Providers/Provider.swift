import ArtworkCore

/// The applications whose webhook bodies `POST /v1/providers/{provider}` reads, each by the
/// reader of its own file.
enum Provider: String, Sendable, CaseIterable {
  case sonarr, radarr, lidarr, jellyfin, emby, overseerr, plex

  /// The names a path may use: each provider's own, and `jellyseerr` and `seerr` for
  /// Overseerr's forks, which send the same body.
  static let names: [String: Provider] = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) }
      + [("jellyseerr", .overseerr), ("seerr", .overseerr)])

  /// The provider `name` (a path segment, compared in lower case) names, or the 404 that lists
  /// the known ones.
  static func named(_ name: String) throws(ArtworkError) -> Provider {
    if let provider = names[name.lowercased()] { return provider }
    throw ArtworkError(
      .notFound,
      "\(ClientText.quoted(name)) is not a provider here; use one of \(knownList).")
  }

  /// Every name a path may use, for a problem's detail.
  static var knownList: String { names.keys.sorted().joined(separator: ", ") }

  /// The application's name as people write it.
  var title: String {
    switch self {
    case .sonarr: "Sonarr"
    case .radarr: "Radarr"
    case .lidarr: "Lidarr"
    case .jellyfin: "Jellyfin"
    case .emby: "Emby"
    case .overseerr: "Overseerr"
    case .plex: "Plex"
    }
  }

  /// Whether its body may carry an image of its own (Plex's JPEG part): such a body may be as
  /// large as an upload, and takes a place among the image workers' jobs from its head.
  var sendsImages: Bool { self == .plex }

  /// Reads `input` as this application's webhook body.
  func read(_ input: ProviderInput) throws(ArtworkError) -> ProviderEvent {
    switch self {
    case .sonarr: try SonarrReader.read(input)
    case .radarr: try RadarrReader.read(input)
    case .lidarr: try LidarrReader.read(input)
    case .jellyfin: try JellyfinReader.read(input)
    case .emby: try EmbyReader.read(input)
    case .overseerr: try OverseerrReader.read(input)
    case .plex: try PlexReader.read(input)
    }
  }
}
