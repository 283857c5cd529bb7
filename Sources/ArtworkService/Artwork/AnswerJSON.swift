import ArtworkCore
import JSON
import SafeFetch
import WorkerHost

/// The JSON bodies of successful answers, in the documented key order (the CLI prints the same
/// objects).
public enum AnswerJSON {
  /// The answer for created artwork; its first three keys merge into an activity's content.
  /// `location` is the hosted URL (service) or a file path (CLI `process`).
  public static func artwork(_ answer: ArtworkAnswer, location: String, sourceURL: String?)
    -> JSONValue
  {
    .object([
      ("image_url", .string(location)),
      ("image_shape", .string(answer.shape)),
      ("image_thumbhash", .string(answer.thumbHash)),
      ("width", .int(answer.width)),
      ("height", .int(answer.height)),
      ("format", .string(answer.format)),
      ("bytes", .int(answer.bytes)),
      ("average_color", .string(answer.averageColor)),
      ("source", source(answer.source, url: sourceURL)),
    ])
  }

  /// The body `POST /v1/thumbhash` answers for `computed` (the CLI prints the same object).
  public static func thumbHash(_ computed: ComputedThumbHash, sourceURL: String?) -> JSONValue {
    thumbHash(ThumbHashAnswer(computed), sourceURL: sourceURL)
  }

  static func thumbHash(_ answer: ThumbHashAnswer, sourceURL: String?) -> JSONValue {
    .object([
      ("thumbhash", .string(answer.thumbHash)),
      ("width", .int(answer.source.width)),
      ("height", .int(answer.source.height)),
      ("average_color", .string(answer.averageColor)),
      // The image's own ratio; the hash keeps only an approximation (0.714 for 2:3).
      ("aspect_ratio", .double(aspectRatio(answer.source))),
      ("source", source(answer.source, url: sourceURL)),
    ])
  }

  /// Width over height of `source`, to four decimals.
  static func aspectRatio(_ source: SourceFacts) -> Double {
    guard source.height > 0 else { return 0 }
    return (Double(source.width) / Double(source.height) * 10_000).rounded() / 10_000
  }

  static func source(_ source: SourceFacts, url: String?) -> JSONValue {
    var members: [(String, JSONValue)] = []
    if let url { members.append(("url", .string(url))) }
    members += [
      ("format", .string(source.format)),
      ("width", .int(source.width)),
      ("height", .int(source.height)),
      ("bytes", .int(source.bytes)),
    ]
    return .object(members)
  }

  /// `/v1/check`'s answer. The URL, the reasons and the advice (which may quote redirect
  /// targets and library messages) carry no secret query value.
  static func report(_ report: ReachabilityReport, secrets: SecretParameters) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("url", .string(secrets.redacted(report.url))),
      ("ok", .bool(report.ok)),
      (
        "checks",
        .array(
          report.checks.map { check in
            .object([
              ("name", .string(check.name)), ("ok", check.ok.map(JSONValue.bool) ?? .null),
              ("reason", .string(secrets.redactedText(check.reason))),
            ])
          })
      ),
      ("advice", .array(report.advice.map { .string(secrets.redactedText($0)) })),
    ]
    if let format = report.format { members.append(("format", .string(format))) }
    if let width = report.width { members.append(("width", .int(width))) }
    if let height = report.height { members.append(("height", .int(height))) }
    return .object(members)
  }
}
