import ArtworkCore
import HTTP
import SafeFetch

// `POST /v1/check`: would a phone load this URL? One verdict per rule, then advice.

struct CheckHandler: RouteHandler {
  /// Judges a URL as a phone would.
  let reachability: ReachabilityCheck
  let secrets: SecretParameters

  /// A JSON body (415 otherwise), from the head.
  func check(_ head: inout HTTPRequestHead) throws(ArtworkError) -> WriteContext {
    try BodyCheck.json(
      head, refusal: "Send JSON {\"url\": \"https://...\"} with Content-Type application/json.")
  }

  func handle(_ request: HTTPRequest, _ context: WriteContext) async throws(ArtworkError)
    -> HTTPResponse
  {
    let parsed = try ArtworkRequest.parse(request, form: context.form)
    guard case .url(let url) = parsed.source, parsed.fields.isEmpty else {
      throw ArtworkError(.badRequest, "Send JSON {\"url\": \"https://...\"} and nothing else.")
    }
    let report = try await reachability.check(url)
    return JSONResponse.make(200, AnswerJSON.report(report, secrets: secrets))
  }
}
