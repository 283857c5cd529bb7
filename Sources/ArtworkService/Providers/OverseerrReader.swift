import ArtworkCore

/// The webhook of Overseerr, Jellyseerr and Seerr (Settings → Notifications → Webhook): the
/// user's JSON template, by default `notification_type`, `subject` (`Title (Year)`), `image`
/// (`https://image.tmdb.org/t/p/w600_and_h900_bestv2{poster_path}`, ending in `null` when
/// TMDB has no poster) and `media` (`media_type`: `movie` or `tv`). The requester's e-mail
/// and chat ids are in the body too: they are never read.
enum OverseerrReader {
  static let expected =
    "Overseerr's webhook JSON (its default JSON payload): an object with notification_type, subject and image"

  static func read(_ input: ProviderInput) throws(ArtworkError) -> ProviderEvent {
    let body = try ProviderBody.object(input, provider: .overseerr, expected: expected)
    guard let event = body["notification_type"]?.nonEmptyString else {
      throw ProviderBody.notTheirs(.overseerr, expected: expected, found: "no notification_type")
    }
    if event.uppercased() == "TEST_NOTIFICATION" {
      return ProviderEvent(provider: .overseerr, event: event, item: nil, image: .none(.test))
    }
    let media = body["media"]
    guard let subject = body["subject"]?.scalar, media?.isObject == true || body["image"] != nil
    else {
      return ProviderEvent(provider: .overseerr, event: event, item: nil, image: .none(.noItem))
    }
    let (title, year) = titleAndYear(subject)
    let kind: ProviderItem.Kind =
      switch media?["media_type"]?.scalar?.lowercased() {
      case "tv": .series
      case "movie": .movie
      default: .other
      }
    // Films and series have posters, whatever the template says of the media.
    let item = ProviderItem(kind: kind, title: title, year: year)
    return ProviderEvent(
      provider: .overseerr, event: event, item: item, image: .web(body["image"]?.scalar),
      shape: .poster)
  }

  /// `Inception (2010)` as its title and year; a subject without a year as it is.
  static func titleAndYear(_ subject: String) -> (String, Int?) {
    let trimmed = subject.trimmingSpaces
    guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") else {
      return (trimmed, nil)
    }
    let inside = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
    guard inside.count == 4, let year = Int(inside), year > 1800 else { return (trimmed, nil) }
    let title = String(trimmed[..<open]).trimmingSpaces
    return (title.isEmpty ? trimmed : title, year)
  }
}

extension String {
  /// The text without spaces at either end.
  var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
