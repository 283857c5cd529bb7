import Foundation

/// Query parameters that carry credentials: media servers put them in image URLs (Jellyfin
/// `api_key`, Sonarr and Radarr `apikey`, Plex `X-Plex-Token`, Emby `X-Emby-Token`, signed
/// URLs' `signature`). Their values are replaced by `REDACTED` wherever the service writes a
/// URL down (answers, logs, problems, `/v1/check` reasons, stored records). Pure: no I/O.
public struct SecretParameters: Sendable, Equatable {
  /// The credentials the media applications this service reads document in a query string,
  /// lower case, each with where it is documented:
  /// - Plex: `X-Plex-Token` (support.plex.tv, "Finding an authentication token / X-Plex-Token";
  ///   every Plex image URL carries it).
  /// - Jellyfin: `api_key` and `ApiKey` (jellyfin.org API docs, "Authorization": the query
  ///   parameter forms), and the legacy Emby names it still accepts: `X-Emby-Token`,
  ///   `X-MediaBrowser-Token`, `X-Emby-Authorization` (Jellyfin's `AuthorizationContext`).
  /// - Emby: `api_key` and `X-Emby-Token` (Emby's REST API docs, "API Key Authentication"),
  ///   `X-Emby-Authorization` (the "User Authentication" header, also read from the query).
  /// - Sonarr, Radarr, Lidarr: `apikey` (the Servarr wiki's API page: "apikey" in the query or
  ///   `X-Api-Key` as a header; both are accepted as query names).
  /// - Overseerr: `X-Api-Key` (its API docs; a header, but some clients put it in the query).
  public static let mediaApplicationNames: Set<String> = [
    "x-plex-token", "api_key", "apikey", "x-emby-token", "x-mediabrowser-token",
    "x-emby-authorization", "x-api-key",
  ]
  /// The names redacted by default, lower case: the media applications' credentials and the
  /// common generic ones (signed URLs, OAuth, basic secrets).
  public static let defaultNames: Set<String> = mediaApplicationNames.union([
    "key", "token", "access_token", "signature", "sig", "auth", "password",
  ])
  /// What a secret value is written as.
  public static let placeholder = "REDACTED"

  /// The names redacted, lower case.
  public let names: Set<String>

  /// The default names plus `extra` (compared case-insensitively).
  public init(adding extra: [String] = []) {
    names = Self.defaultNames.union(extra.map { $0.lowercased() })
  }

  /// Whether `name` (as written in a query, percent-encoded or not) names a secret.
  public func isSecret(_ name: Substring) -> Bool {
    let decoded = Self.percentDecoded(name)
    return names.contains(decoded.lowercased())
  }

  /// `url` with the value of every secret query parameter replaced by `REDACTED`; everything
  /// else byte for byte as given (the fragment, other parameters, their order).
  public func redacted(_ url: String) -> String {
    guard let question = url.firstIndex(of: "?") else { return url }
    let fragmentStart = url[question...].firstIndex(of: "#") ?? url.endIndex
    let query = url[url.index(after: question)..<fragmentStart]
    var changed = false
    let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map {
      pair -> String in
      guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
      let name = pair[..<equals]
      guard isSecret(name), pair[pair.index(after: equals)...] != Self.placeholder else {
        return String(pair)
      }
      changed = true
      return name + "=" + Self.placeholder
    }
    guard changed else { return url }
    return String(url[...question]) + pairs.joined(separator: "&") + url[fragmentStart...]
  }

  /// Every secret-looking parameter redacted inside free text (a library message, a reason
  /// that quotes a URL): each `name=value` whose name is a secret, up to the next `&`, space,
  /// quote or `#`; also when percent-encoded once more (`token%3Dvalue%26`, a URL inside
  /// another URL's query).
  public func redactedText(_ text: String) -> String {
    guard text.contains("=") || text.contains("%3D") || text.contains("%3d") else { return text }
    var out = ""
    var rest = text[...]
    while let (assign, valueStart, encoded) = Self.nextAssignment(in: rest) {
      let before = rest[..<assign]
      let nameStart = Self.nameStart(before, encoded: encoded)
      let name = before[nameStart...]
      out += rest[..<valueStart]
      if !name.isEmpty, isSecret(name) {
        out += Self.placeholder
        rest = rest[Self.valueEnd(rest[valueStart...], encoded: encoded)...]
      } else {
        // The value may hold a URL of its own (encoded): look inside it too.
        rest = rest[valueStart...]
      }
    }
    return out + rest
  }

  /// The next `=` or `%3D` in `text`: where it is, where its value starts, and whether it was
  /// encoded.
  private static func nextAssignment(in text: Substring)
    -> (Substring.Index, Substring.Index, Bool)?
  {
    var index = text.startIndex
    while index < text.endIndex {
      if text[index] == "=" { return (index, text.index(after: index), false) }
      if text[index] == "%", text[index...].prefix(3).uppercased() == "%3D" {
        return (index, text.index(index, offsetBy: 3), true)
      }
      index = text.index(after: index)
    }
    return nil
  }

  /// Where the parameter name before an assignment starts: after the last separator (or, in
  /// encoded text, after the last `%26` or `%3F`).
  private static func nameStart(_ before: Substring, encoded: Bool) -> Substring.Index {
    var start =
      before.lastIndex(where: { separators.contains($0) }).map(before.index(after:))
      ?? before.startIndex
    if encoded {
      for escape in ["%26", "%3F", "%3f"] {
        if let range = before[start...].range(of: escape, options: .backwards) {
          start = max(start, range.upperBound)
        }
      }
    }
    return start
  }

  /// Where a value ends: at a separator (or, in encoded text, at `%26` or `%23`).
  private static func valueEnd(_ value: Substring, encoded: Bool) -> Substring.Index {
    var end = value.firstIndex(where: { separators.contains($0) }) ?? value.endIndex
    if encoded {
      for escape in ["%26", "%23"] {
        if let range = value[..<end].range(of: escape, options: .caseInsensitive) {
          end = min(end, range.lowerBound)
        }
      }
    }
    return end
  }

  private static let separators: Set<Character> = [
    "&", "?", " ", "\"", "'", "#", "\n", "\t", "<", ">", ";", ",",
  ]

  /// `text` with its %XX escapes decoded (a bad escape stays as written).
  private static func percentDecoded(_ text: Substring) -> String {
    guard text.contains("%") || text.contains("+") else { return String(text) }
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.first {
      utf8 = utf8.dropFirst()
      if byte == UInt8(ascii: "%"), utf8.count >= 2, let high = hexValue(utf8[utf8.startIndex]),
        let low = hexValue(utf8[utf8.startIndex + 1])
      {
        bytes.append(high << 4 | low)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension ArtworkError {
  /// This error with every secret query value in its detail and internal detail redacted.
  public func redacting(_ secrets: SecretParameters) -> ArtworkError {
    var error = self
    error.detail = secrets.redactedText(detail)
    error.internalDetail = internalDetail.map(secrets.redactedText)
    return error
  }
}
