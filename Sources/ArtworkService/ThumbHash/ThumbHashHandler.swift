import ArtworkCore
import HTTP
import WorkerHost

// `POST /v1/thumbhash`: the ThumbHash of a source image; nothing is stored.

/// Parse (once), hash an upload at once, a URL through its remembered result.
struct ThumbHashHandler: RouteHandler {
  let workers: WorkerPool
  let urlThumbHash: URLThumbHash
  /// The source URL is echoed with its secret query values redacted.
  let secrets: SecretParameters
  let metrics: Metrics

  func check(_ head: inout HTTPRequestHead) throws(ArtworkError) -> WriteContext {
    try BodyCheck.upload(head, workers: workers)
  }

  /// The fast path, on the server thread, as `CreateArtworkHandler`'s.
  func answerFromMemory(_ request: HTTPRequest, _ context: inout WriteContext) -> HTTPResponse? {
    guard let parsed = ArtworkRequest.parseJSON(request, form: context.form) else { return nil }
    context.parsed = parsed
    guard case .url(let url) = parsed.source, parsed.fields.isEmpty,
      !RequestPreferences(request.headers).revalidate,
      let (answer, age) = try? urlThumbHash.results.remembered(url: url, variant: "")
    else { return nil }
    metrics.recordCacheLookup(hit: true)
    return JSONResponse.make(
      200, AnswerJSON.thumbHash(answer, sourceURL: secrets.redacted(url)),
      headers: [("Age", String(age))])
  }

  func handle(_ request: HTTPRequest, _ context: WriteContext) async throws(ArtworkError)
    -> HTTPResponse
  {
    let parsed = try ArtworkRequest.parsed(request, context)
    guard parsed.fields.isEmpty else {
      throw ArtworkError(.badRequest, "POST /v1/thumbhash takes no options.")
    }
    switch parsed.source {
    case .upload(let bytes, let declaredType):
      let answer = try await urlThumbHash.hash(
        bytes, declaredType: declaredType,
        retryingRemembered: RequestPreferences(request.headers).revalidate)
      return JSONResponse.make(200, AnswerJSON.thumbHash(answer, sourceURL: nil))
    case .url(let url):
      let revalidate = RequestPreferences(request.headers).revalidate
      let (answer, age) = try await urlThumbHash.thumbHash(from: url, revalidate: revalidate)
      return JSONResponse.make(
        200, AnswerJSON.thumbHash(answer, sourceURL: secrets.redacted(url)),
        headers: age.map { [("Age", String($0))] } ?? [])
    }
  }
}
