import ArtworkCore
import HTTP
import ImageWorkers
import SafeFetch

// `POST /v1/thumbhash`: the ThumbHash of a source image; nothing is stored.

extension ArtworkApp {
  /// The handler: parse (once), hash an upload at once, a URL through its remembered result.
  func computeThumbHash(_ request: HTTPRequest, _ context: WriteContext)
    async throws(ArtworkError) -> HTTPResponse
  {
    let parsed = try ArtworkRequest.parsed(request, context)
    guard parsed.fields.isEmpty else {
      throw ArtworkError(.badRequest, "POST /v1/thumbhash takes no options.")
    }
    switch parsed.source {
    case .upload(let bytes, let declaredType):
      let answer = try await hash(bytes, declaredType: declaredType)
      return JSONResponse.make(200, ArtworkApp.thumbHashJSON(answer, sourceURL: nil))
    case .url(let url):
      let revalidate = RequestPreferences(request.headers).revalidate
      let (answer, age) = try await thumbHash(from: url, revalidate: revalidate)
      return JSONResponse.make(
        200, ArtworkApp.thumbHashJSON(answer, sourceURL: url),
        headers: age.map { [("Age", String($0))] } ?? [])
    }
  }

  /// The fast path, on the server thread, as `rememberedArtwork`.
  func rememberedThumbHash(_ request: HTTPRequest, _ context: inout WriteContext)
    -> HTTPResponse?
  {
    guard let parsed = ArtworkRequest.parseJSON(request, form: context.form) else { return nil }
    context.parsed = parsed
    guard case .url(let url) = parsed.source, parsed.fields.isEmpty,
      !RequestPreferences(request.headers).revalidate,
      let (answer, age) = try? thumbHashResults.remembered(url: url, variant: "")
    else { return nil }
    metrics.recordCacheLookup(hit: true)
    return JSONResponse.make(
      200, ArtworkApp.thumbHashJSON(answer, sourceURL: url), headers: [("Age", String(age))])
  }

  /// A URL's ThumbHash: the remembered result while fresh; else fetched (conditionally when
  /// there is a result to revalidate), hashed and remembered; with the age of a remembered one.
  func thumbHash(from url: String, revalidate: Bool = false) async throws(ArtworkError)
    -> (ThumbHashAnswer, age: Int?)
  {
    // 1. The remembered result, or the lease to produce it.
    let lease: ResultCache<ThumbHashAnswer>.Lease
    switch try await lookUp(url, variant: "", in: thumbHashResults, revalidate: revalidate) {
    case .answer(let answer, let age): return (answer, age)
    case .produce(let started): lease = started
    }
    do throws(ArtworkError) {
      // 2. Fetch, conditionally when there is a result to revalidate.
      let fetched = try await fetchSource(url, validators: lease.validators ?? Validators())
      // 3. Not modified: the last result holds.
      if fetched.isNotModified { return (try await lease.confirmed(fetched.validators), nil) }
      // 4. Hash, then remember.
      let answer = try await hash(
        fetched.bytes[...], declaredType: fetched.contentType.map(mediaTypeEssence))
      return (try await lease.produced(answer, validators: fetched.validators), nil)
    } catch {
      return (try await lease.failed(error), nil)
    }
  }

  private func hash(_ bytes: ArraySlice<UInt8>, declaredType: String?) async throws(ArtworkError)
    -> ThumbHashAnswer
  {
    ThumbHashAnswer(try await processor.thumbHash(bytes, declaredType: declaredType))
  }
}
