import ArtworkCore
import HTTP

/// The response of created (or remembered) artwork, as `POST /v1/artwork` and its result URL
/// answer it. The source URL is the caller's own, shown with its secret query values redacted.
struct ArtworkResponse: Sendable {
  let urls: HostedURLs
  let secrets: SecretParameters

  /// The answer's 201 (or `status`); `age` (a remembered result's) becomes the `Age` header.
  func make(
    _ answer: ArtworkAnswer, sourceURL: String?, age: Int? = nil, status: Int = 201,
    headers extra: [(String, String)] = []
  ) -> HTTPResponse {
    // The file name was validated when the answer was made: not parsed again here, on the hot
    // path of remembered answers.
    let url = urls.url(fileName: answer.fileName)
    let body = AnswerJSON.artwork(
      answer, location: url, sourceURL: sourceURL.map(secrets.redacted))
    var headers = [("Location", url)] + extra
    if let age { headers.append(("Age", String(age))) }
    return JSONResponse.make(status, body, headers: headers)
  }
}
