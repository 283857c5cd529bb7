/// Query parameters that carry credentials: media servers put them in image URLs (Jellyfin
/// `api_key`, Sonarr and Radarr `apikey`, Plex `X-Plex-Token`, signed URLs' `signature`).
/// Their values are replaced by `REDACTED` wherever the service writes a URL down (logs,
/// problems, `/v1/check` reasons, stored records). Pure: no I/O.
public struct SecretParameters: Sendable, Equatable {
  /// The names redacted by default, lower case.
  public static let defaultNames: Set<String> = [
    "api_key", "apikey", "key", "token", "access_token", "x-plex-token", "signature", "sig",
    "auth", "password",
  ]
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

  /// Whether `url`'s query names any secret.
  public func containsSecret(_ url: String) -> Bool { redacted(url) != url }

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

  /// Every secret-looking parameter redacted inside free text (a library message that quotes a
  /// URL): each `name=value` whose name is a secret, up to the next `&`, space, quote or `#`.
  public func redactedText(_ text: String) -> String {
    guard text.contains("=") else { return text }
    var out = ""
    var rest = text[...]
    while let equals = rest.firstIndex(of: "=") {
      let before = rest[..<equals]
      let nameStart =
        before.lastIndex(where: { Self.separators.contains($0) }).map(before.index(after:))
        ?? before.startIndex
      let name = before[nameStart...]
      let valueStart = rest.index(after: equals)
      let valueEnd =
        rest[valueStart...].firstIndex(where: { Self.separators.contains($0) }) ?? rest.endIndex
      out += rest[...equals]
      if !name.isEmpty, isSecret(name) {
        out += Self.placeholder
      } else {
        out += rest[valueStart..<valueEnd]
      }
      rest = rest[valueEnd...]
    }
    return out + rest
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
      if byte == UInt8(ascii: "%"), utf8.count >= 2,
        let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
