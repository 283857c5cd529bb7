import ArtworkCore
import JSON

/// The `images` of Sonarr, Radarr and Lidarr bodies: `[{coverType, url, remoteUrl}]`. Only
/// `remoteUrl` is ever used: `url` is a path on the application's own server
/// (`/MediaCover/86/poster.jpg?lastWrite=...`) that needs its login, and is never fetched.
enum ArrImages {
  /// The `remoteUrl` of the first image of `coverType` (compared ignoring case) in `images`
  /// that has an http or https one, with TMDB's `original` size asked for at `w780`.
  static func remoteURL(_ images: JSONValue?, coverType: String) -> String? {
    for image in images?.elements ?? [] {
      guard image["coverType"]?.scalar?.lowercased() == coverType,
        let remote = image["remoteUrl"]?.scalar, isWebURL(remote)
      else { continue }
      return TMDBImage.sized(remote)
    }
    return nil
  }

  /// Whether `text` starts as an http or https URL does (the fetch checks the rest).
  static func isWebURL(_ text: String) -> Bool {
    let lowered = text.prefix(8).lowercased()
    return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
  }

  /// The event of an *arr body: its `eventType`, or the 422 that says what was expected.
  static func eventType(_ body: JSONValue, provider: Provider, expected: String)
    throws(ArtworkError) -> String
  {
    guard let event = body["eventType"]?.nonEmptyString else {
      throw ProviderBody.notTheirs(provider, expected: expected, found: "no eventType")
    }
    return event
  }
}

extension ImageSource {
  /// A URL from a body, with the `w780` retry of a TMDB `w600_and_h900_bestv2` size; no
  /// artwork (`no-image`) when it names none.
  static func web(_ url: String?) -> ImageSource {
    guard let url, ArrImages.isWebURL(url), !TMDBImage.isMissing(url) else {
      return .none(.noImage)
    }
    return .url(url, fallback: TMDBImage.fallback(for: url))
  }
}

extension ArrImages {
  /// The application a body of another *arr comes from, by the object only it sends
  /// (`series`, `movie`, `artist`), so that a 422 can say which webhook URL it belongs on.
  static func otherApplication(_ body: JSONValue, besides provider: Provider) -> Provider? {
    let keys: [(String, Provider)] = [("series", .sonarr), ("movie", .radarr), ("artist", .lidarr)]
    for (key, owner) in keys where owner != provider && body[key]?.isObject == true {
      return owner
    }
    return nil
  }

  /// The event of an *arr body and whether it is about an item: its `eventType` (a 422 when it
  /// has none, or when it is another *arr's body), and nil for an event about no item.
  static func read(
    _ input: ProviderInput, provider: Provider, itemKey: String, expected: String
  ) throws(ArtworkError) -> (body: JSONValue, event: String) {
    let body = try ProviderBody.object(input, provider: provider, expected: expected)
    if body[itemKey]?.isObject != true, let other = otherApplication(body, besides: provider) {
      throw ProviderBody.notTheirs(
        provider, expected: expected,
        found: "a \(other.title) body (send it to /v1/providers/\(other.rawValue))")
    }
    return (body, try eventType(body, provider: provider, expected: expected))
  }

  /// Whether `event` is the application's Test button.
  static func isTest(_ event: String) -> Bool { event.lowercased() == "test" }

  /// A year as the *arrs write it (0 when unknown): nil for 0.
  static func year(_ value: JSONValue?) -> Int? {
    guard let year = value?.integer, year > 0 else { return nil }
    return year
  }
}
