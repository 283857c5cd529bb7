/// The answer of `POST /v1/check`: would a phone load this URL, rule by rule. Encodes to the
/// response JSON: `{"url","ok","checks":[{"name","ok","reason"}],"advice","format"?,
/// "width"?,"height"?}`, where a rule's `ok` is `true`, `false` or `null` (not checked).
public struct ReachabilityReport: Sendable, Equatable, Encodable {
  /// One rule a phone applies, and whether the URL meets it.
  public struct Check: Sendable, Equatable, Encodable {
    /// `https`, `public_address`, `redirects`, `tls`, `status`, `content_type`, `size`, `format`.
    public let name: String
    /// True when the rule passed, false when it failed, nil when it could not be checked
    /// because the fetch stopped before it (an earlier failure says why; so does `reason`).
    public let ok: Bool?
    /// A sentence a person can act on (what was found, and why it passes or fails, or why it
    /// was not checked).
    public let reason: String

    /// A rule that was not checked, and why.
    static func skipped(_ name: String, _ reason: String) -> Check {
      Check(name: name, ok: nil, reason: reason)
    }

    /// Whether the rule ran and failed.
    public var failed: Bool { ok == false }

    private enum CodingKeys: String, CodingKey { case name, ok, reason }

    /// Writes `ok` as `null` when the rule was not checked (a synthesised encoder would leave
    /// the member out).
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(ok, forKey: .ok)
      try container.encode(reason, forKey: .reason)
    }
  }

  /// The URL as given.
  public let url: String
  /// True when every rule passed (a rule that was not checked is not a pass).
  public let ok: Bool
  /// In the order a phone meets them.
  public let checks: [Check]
  /// What to do about the rules that failed (empty when everything passed); never about a rule
  /// that was not checked.
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
