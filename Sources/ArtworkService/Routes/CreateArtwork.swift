import ArtworkCore
import Foundation
import HTTP
import ImageWorkers
import SafeFetch
import Storage

// `POST /v1/artwork`: hosted, framed artwork and its ThumbHash. docs/ARCHITECTURE.md walks it.

extension ArtworkApp {
  /// The handler: parse (once), then an upload is rendered and stored, a URL goes through its
  /// remembered result; 201 with the hosted URL, shape, ThumbHash and facts of what was stored.
  func createArtwork(_ request: HTTPRequest, _ context: WriteContext) async throws(ArtworkError)
    -> HTTPResponse
  {
    let parsed = try ArtworkRequest.parsed(request, context)
    let options = try ArtworkOptions(fields: parsed.fields)
    switch parsed.source {
    case .upload(let bytes, let declaredType):
      let answer = try await renderAndStore(
        bytes, declaredType: declaredType, options: options, admission: context.admission)
      return artworkResponse(answer, sourceURL: nil)
    case .url(let url):
      var preferences = RequestPreferences(request.headers)
      preferences.wait = grantedWait(preferences.wait)
      let revalidate = preferences.revalidate
      guard let wait = preferences.wait else {
        let (answer, age) = try await artwork(from: url, options: options, revalidate: revalidate)
        return artworkResponse(answer, sourceURL: url, age: age)
      }
      // A failure remembered in memory is the answer at once, not a race against the wait.
      if !revalidate { _ = try artworkResults.remembered(url: url, variant: options.cacheKey) }
      // The caller waits at most `wait` seconds; the work goes on after that, and its result
      // is what the Location answers.
      let outcome = await BoundedWait.run(atMost: wait) { [self] () throws(ArtworkError) in
        try await artwork(from: url, options: options, revalidate: revalidate)
      }
      switch outcome {
      case .finished(let result):
        let (answer, age) = try result.get()
        return artworkResponse(
          answer, sourceURL: url, age: age, headers: [("Preference-Applied", "wait=\(wait)")])
      case .pending:
        let id = artworkResults.resultID(url: url, variant: options.cacheKey)
        return JSONResponse.make(
          202,
          .object([
            ("status", .string("pending")),
            ("result", .string("/v1/artwork/results/\(id)")),
            ("detail", .string("The artwork is being made; GET the result URL for it.")),
          ]),
          headers: [
            ("Location", "/v1/artwork/results/\(id)"), ("Retry-After", "1"),
            ("Preference-Applied", "wait=\(wait)"),
          ])
      }
    }
  }

  /// The fast path, on the server thread: a URL whose result is in memory (the relay's repeat
  /// of a poster URL) is answered at once. Anything else goes to `createArtwork`, with what was
  /// parsed here.
  func rememberedArtwork(_ request: HTTPRequest, _ context: inout WriteContext) -> HTTPResponse? {
    guard let parsed = ArtworkRequest.parseJSON(request, form: context.form) else { return nil }
    context.parsed = parsed
    guard case .url(let url) = parsed.source,
      !RequestPreferences(request.headers).revalidate,
      let options = try? ArtworkOptions(fields: parsed.fields),
      let (answer, age) = try? artworkResults.remembered(url: url, variant: options.cacheKey)
    else { return nil }
    metrics.recordCacheLookup(hit: true)
    return artworkResponse(answer, sourceURL: url, age: age)
  }

  /// A URL's artwork: the remembered result while it is fresh; else the origin is asked
  /// (conditionally when the last result's image is still stored), and a new image is rendered,
  /// stored and remembered. Concurrent identical requests share one run. Answers the age of a
  /// remembered result (nil when it was made or confirmed now); `revalidate` asks the origin
  /// again even when the result is fresh.
  func artwork(from url: String, options: ArtworkOptions, revalidate: Bool = false)
    async throws(ArtworkError) -> (ArtworkAnswer, age: Int?)
  {
    // 1. The remembered result, or the lease to produce it. A result in memory is answered as
    // it is (a deletion anywhere evicts it within the notice bound); one read from storage only
    // while its image is still stored (a deleted image's results are removed through its
    // index, and this catches any the index missed).
    let variant = options.cacheKey
    if !revalidate, let (answer, age) = try artworkResults.remembered(url: url, variant: variant) {
      metrics.recordCacheLookup(hit: true)
      return (answer, age)
    }
    var lease: ResultCache<ArtworkAnswer>.Lease?
    for attempt in 0..<2 where lease == nil {
      switch try await lookUp(url, variant: variant, in: artworkResults, revalidate: revalidate) {
      case .answer(let answer, let age):
        guard age != nil, attempt == 0, !(await isStored(answer)) else { return (answer, age) }
        try await artworkResults.forget(url: url, variant: variant)
      case .produce(let started): lease = started
      }
    }
    guard let lease else {
      throw ArtworkError(.internal, "The request stopped.", internalDetail: "no lease")
    }
    do throws(ArtworkError) {
      // 2. Revalidate the last result only while its image is still stored.
      if let previous = lease.previous, !(await isStored(previous)) { lease.discardPrevious() }
      // 3. Fetch, conditionally when there is a result to revalidate.
      let fetched = try await fetchSource(url, validators: lease.validators ?? Validators())
      // 4. Not modified: the last result holds.
      if fetched.isNotModified { return (try await lease.confirmed(fetched.validators), nil) }
      // 5. Render and store the new image, then remember it.
      let answer = try await renderAndStore(
        fetched.bytes[...], declaredType: fetched.contentType.map(mediaTypeEssence),
        options: options, sourceURL: url)
      // 6. Index the result under its image, so that deleting the image forgets it.
      if let key = ArtworkKey(fileName: answer.fileName) {
        try await imageIndex.add(artworkResults.recordName(url: url, variant: variant), to: key.id)
      }
      return (try await lease.produced(answer, validators: fetched.validators), nil)
    } catch {
      return (try await lease.failed(error), nil)
    }
  }

  /// Renders source bytes for `options` and stores the result; answers once the object is
  /// durably stored (nothing acknowledged is ever lost). An upload's `admission` is given back
  /// once its image is rendered: the next upload may come in while this one is stored. A new
  /// object's facts (`ImageFacts`, with `sourceURL` redacted) are stored beside it first.
  func renderAndStore(
    _ bytes: ArraySlice<UInt8>, declaredType: String?, options: ArtworkOptions,
    admission: WorkerPool.Admission? = nil, sourceURL: String? = nil
  ) async throws(ArtworkError) -> ArtworkAnswer {
    let created = try await processor.render(bytes, declaredType: declaredType, options: options)
    admission?.release()
    metrics.recordStages(created.timings)
    let storing = ContinuousClock.now
    let answer = ArtworkAnswer(created, shape: options.shape)
    if try await storage.put(created.key, bytes: created.bytes) {
      metrics.recordArtworkCreated(bytes: created.bytes.count)
      await storeFacts(
        ImageFacts(
          answer, createdAt: Date().timeIntervalSince1970,
          sourceURL: sourceURL.map(config.secretParameters.redacted)), of: created.key)
    }
    metrics.recordStage("store", ContinuousClock.now - storing)
    return answer
  }

  /// The caller's wait (`Prefer: wait`) within the handler's deadline, less two seconds to
  /// answer in: a wait the deadline would cut short gets the pushable answer, not a 503.
  func grantedWait(_ wait: Int?) -> Int? {
    guard let wait, config.handlerTimeout > .zero else { return wait }
    return min(wait, max(0, Int(config.handlerTimeout.components.seconds) - 2))
  }

  /// Whether the image of a remembered answer is still in storage (retention may have removed
  /// it); a storage failure counts as not stored, so the image is made again.
  func isStored(_ answer: ArtworkAnswer) async -> Bool {
    guard let key = ArtworkKey(fileName: answer.fileName) else { return false }
    return (try? await storage.head(key)) != nil
  }

  /// The answer's 201 (or `status`); `age` (a remembered result's) becomes the `Age` header.
  func artworkResponse(
    _ answer: ArtworkAnswer, sourceURL: String?, age: Int? = nil, status: Int = 201,
    headers extra: [(String, String)] = []
  ) -> HTTPResponse {
    // The file name was validated when the answer was made: not parsed again here, on the hot
    // path of remembered answers.
    let url = config.imageURL(fileName: answer.fileName)
    let body = ArtworkApp.artworkJSON(answer, location: url, sourceURL: sourceURL)
    var headers = [("Location", url)] + extra
    if let age { headers.append(("Age", String(age))) }
    return JSONResponse.make(status, body, headers: headers)
  }

}
