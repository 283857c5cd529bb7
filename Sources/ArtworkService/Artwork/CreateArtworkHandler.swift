import ArtworkCore
import HTTP
import WorkerHost

// `POST /v1/artwork`: hosted, framed artwork and its ThumbHash. docs/ARCHITECTURE.md walks it.

/// Parse (once), then an upload is rendered and stored, a URL goes through its remembered
/// result; 201 with the hosted URL, shape, ThumbHash and facts of what was stored.
struct CreateArtworkHandler: RouteHandler {
  let workers: WorkerPool
  let renderer: ArtworkRenderer
  let urlArtwork: URLArtwork
  let wait: CallerWait
  let response: ArtworkResponse
  let metrics: Metrics

  /// The input form (415), and for an upload whether the workers would take its job (503),
  /// from the head.
  func check(_ head: inout HTTPRequestHead) throws(ArtworkError) -> WriteContext {
    try BodyCheck.upload(head, workers: workers)
  }

  /// The fast path, on the server thread: a URL whose result is in memory (the relay's repeat
  /// of a poster URL) is answered at once. Anything else goes to `handle`, with what was
  /// parsed here.
  func answerFromMemory(_ request: HTTPRequest, _ context: inout WriteContext) -> HTTPResponse? {
    guard let parsed = ArtworkRequest.parseJSON(request, form: context.form) else { return nil }
    context.parsed = parsed
    guard case .url(let url) = parsed.source,
      !RequestPreferences(request.headers).revalidate,
      let options = try? ArtworkOptions(fields: parsed.fields),
      let (answer, age) = try? urlArtwork.remembered(
        url: url, options: options, caller: request.caller)
    else { return nil }
    metrics.recordCacheLookup(hit: true)
    return response.make(answer, sourceURL: url, age: age)
  }

  func handle(_ request: HTTPRequest, _ context: WriteContext) async throws(ArtworkError)
    -> HTTPResponse
  {
    let parsed = try ArtworkRequest.parsed(request, context)
    let options = try ArtworkOptions(fields: parsed.fields)
    let caller = request.caller
    switch parsed.source {
    case .upload(let bytes, let declaredType):
      let answer = try await renderer.renderAndStore(
        bytes, declaredType: declaredType, options: options,
        retryingRemembered: RequestPreferences(request.headers).revalidate, caller: caller)
      return response.make(answer, sourceURL: nil)
    case .url(let url):
      let preferences = RequestPreferences(request.headers)
      let revalidate = preferences.revalidate
      guard let seconds = wait.granted(preferences.wait) else {
        let (answer, age) = try await urlArtwork.artwork(
          from: url, options: options, revalidate: revalidate, caller: caller)
        return response.make(answer, sourceURL: url, age: age)
      }
      // The caller waits at most `seconds`; the work goes on after that, and its result is
      // what the Location answers.
      let outcome = await wait.outcome(
        within: seconds,
        remembered: { () throws(ArtworkError) -> (ArtworkAnswer, age: Int?)? in
          guard !revalidate,
            let (answer, age) = try urlArtwork.remembered(
              url: url, options: options, caller: caller)
          else { return nil }
          metrics.recordCacheLookup(hit: true)
          return (answer, age)
        },
        { [urlArtwork] () throws(ArtworkError) in
          try await urlArtwork.artwork(
            from: url, options: options, revalidate: revalidate, caller: caller)
        })
      switch outcome {
      case .finished(let result):
        let (answer, age) = try result.get()
        return response.make(
          answer, sourceURL: url, age: age, headers: [("Preference-Applied", "wait=\(seconds)")])
      case .pending:
        // Bound to the caller: another token's GET of it is a 404.
        let id = urlArtwork.results.resultID(
          url: url, variant: options.cacheKey, caller: caller)
        return JSONResponse.make(
          202,
          .object([
            ("status", .string("pending")),
            ("result", .string("/v1/artwork/results/\(id)")),
            ("detail", .string("The artwork is being made; GET the result URL for it.")),
          ]),
          headers: [
            ("Location", "/v1/artwork/results/\(id)"), ("Retry-After", "1"),
            ("Preference-Applied", "wait=\(seconds)"),
          ])
      }
    }
  }
}
