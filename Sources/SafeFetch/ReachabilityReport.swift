/// The answer of `POST /v1/check`: would a phone load this URL, rule by rule. Encodes to the
/// response JSON: `{"url","ok","checks":[{"name","ok","reason"}],"advice","format"?,
/// "width"?,"height"?}`.
public struct ReachabilityReport: Sendable, Equatable, Encodable {
  /// One rule a phone applies, and whether the URL meets it.
  public struct Check: Sendable, Equatable, Encodable {
    /// `https`, `public_address`, `redirects`, `tls`, `status`, `content_type`, `size`, `format`.
    public let name: String
    /// Whether every rule passed: a phone would load the URL.
    public let ok: Bool
    /// A sentence a person can act on (what was found, and why it passes or fails).
    public let reason: String
  }

  /// The URL as given.
  public let url: String
  /// True when every check passed.
  public let ok: Bool
  /// In the order a phone meets them.
  public let checks: [Check]
  /// What to do about the failures (empty when everything passed).
  public let advice: [String]
  /// The decodable format and its dimensions, when the image was fetched and recognised.
  public let format: String?
  /// The image width, when its header was read.
  public let width: Int?
  /// The image height, when its header was read.
  public let height: Int?

  /// The check named `name`.
  public func check(_ name: String) -> Check? { checks.first { $0.name == name } }
}
