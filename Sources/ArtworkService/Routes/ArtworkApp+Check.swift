import ArtworkCore
import HTTP

extension ArtworkApp {
  /// `POST /v1/check`: would a phone load this URL? One verdict per rule, then advice.
  func checkURL(_ request: HTTPRequest, _ context: WriteContext) async throws(ArtworkError)
    -> HTTPResponse
  {
    let parsed = try ArtworkRequest.parse(request, form: context.form)
    guard case .url(let url) = parsed.source, parsed.fields.isEmpty else {
      throw ArtworkError(.badRequest, "Send JSON {\"url\": \"https://...\"} and nothing else.")
    }
    let report = try await reachability.check(url)
    return JSONResponse.make(200, ArtworkApp.reportJSON(report, secrets: config.secretParameters))
  }
}
