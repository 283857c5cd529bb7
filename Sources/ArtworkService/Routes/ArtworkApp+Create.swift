import ArtworkCore
import HTTP
import Imaging

extension ArtworkApp {
  /// Checks that need only the request head, run before any body byte is read, in the order of
  /// the API: auth, then the declared body size, then the declared body type, then admission.
  /// (The HTTP layer also enforces the size limit while a body without a length arrives.)
  func checkUploadHead(_ head: HTTPRequestHead) throws(ArtworkError) {
    try authenticator.authorize(head.headers["Authorization"])
    if let declared = head.headers["Content-Length"].flatMap({ Int($0) }),
      declared > maxUploadBodyBytes
    {
      throw ArtworkError(.payloadTooLarge, uploadTooLarge(declared: declared))
    }
    let essence = mediaTypeEssence(head.headers["Content-Type"] ?? "")
    try ArtworkRequest.checkContentType(essence)
    // Admission: an upload that would find the image queue full is refused now, before its
    // body is read into memory. (A JSON body names a URL whose result may be cached, so it
    // goes on.)
    if essence != "application/json", processor.pool.isFull {
      throw ArtworkError(.busy, "The image queue is full; retry in a second.", retryAfter: 1)
    }
  }

  /// The 413 detail for an upload whose body is over the limit, quoting the documented image
  /// limit rather than the body allowance (which adds room for multipart framing).
  func uploadTooLarge(declared: Int?) -> String {
    let limit = ByteCount.text(config.maxSourceBytes)
    guard let declared else {
      return "The request body is larger than an image may be: at most \(limit)."
    }
    return "The request body is \(ByteCount.text(declared)); an image may be at most \(limit)."
  }

  /// Auth and a JSON content type, for `POST /v1/check`.
  func checkJSONHead(_ head: HTTPRequestHead) throws(ArtworkError) {
    try authenticator.authorize(head.headers["Authorization"])
    guard mediaTypeEssence(head.headers["Content-Type"] ?? "") == "application/json" else {
      throw ArtworkError(
        .unsupportedMediaType,
        "Send JSON {\"url\": \"https://...\"} with Content-Type application/json.")
    }
  }

  /// `POST /v1/artwork`: 201 with the hosted URL, shape, ThumbHash and facts of what was stored.
  /// A URL source is answered from the per-URL cache when it can be.
  func createArtwork(_ request: HTTPRequest) async throws(ArtworkError) -> HTTPResponse {
    let parsed = try ArtworkRequest.parse(request)
    let options = try ArtworkOptions(fields: parsed.fields)
    let answer: CachedArtwork
    let sourceURL: String?
    switch parsed.source {
    case .upload:
      answer = try await store(try await sources.bytes(for: parsed.source), options: options)
      sourceURL = nil
    case .url(let url):
      let storage = self.storage
      let lookup = try await artworkCache.value(
        url: url, variant: options.cacheKey,
        isUsable: { cached in
          guard let key = ArtworkKey(fileName: cached.fileName) else { return false }
          return (try? await storage.head(key)) != nil
        },
        produce: { [self] validators throws(ArtworkError) in
          try await produceArtwork(parsed.source, options: options, validators: validators)
        })
      metrics.recordCacheLookup(hit: lookup.hit)
      answer = lookup.payload
      sourceURL = url
    }
    return artworkResponse(answer, sourceURL: sourceURL)
  }

  /// `POST /v1/artwork` answered on the server thread when its URL's result is in memory (the
  /// relay's repeat of a poster URL); nil for anything else, which `createArtwork` handles,
  /// errors included.
  func rememberedArtwork(_ request: HTTPRequest) -> HTTPResponse? {
    guard let parsed = ArtworkRequest.parseJSON(request), case .url(let url) = parsed.source,
      let options = try? ArtworkOptions(fields: parsed.fields),
      let answer = try? artworkCache.remembered(url: url, variant: options.cacheKey)
    else { return nil }
    metrics.recordCacheLookup(hit: true)
    return artworkResponse(answer, sourceURL: url)
  }

  private func artworkResponse(_ answer: CachedArtwork, sourceURL: String?) -> HTTPResponse {
    let url = imageURL(answer.fileName)
    let body = ArtworkApp.artworkJSON(answer, location: url, sourceURL: sourceURL)
    return JSONResponse.make(201, body, headers: [("Location", url)])
  }

  /// Fetches (conditionally), renders and stores: the work behind a cache miss.
  func produceArtwork(_ source: SourceInput, options: ArtworkOptions, validators: Validators?)
    async throws(ArtworkError) -> Produced<CachedArtwork>
  {
    let input = try await fetch(source, validators: validators)
    if input.notModified { return .notModified(input.validators) }
    return .fresh(try await store(input, options: options), input.validators)
  }

  /// Renders source bytes for `options` and stores the result.
  func store(_ input: SourceBytes, options: ArtworkOptions) async throws(ArtworkError)
    -> CachedArtwork
  {
    let created = try await processor.render(
      input.bytes, declaredType: input.declaredType, options: options)
    // Answer only once the object is durably stored: nothing acknowledged is ever lost.
    if try await storage.put(created.key, bytes: created.rendered.bytes) {
      metrics.recordArtworkCreated(bytes: created.rendered.bytes.count)
    }
    return CachedArtwork(created, shape: options.shape)
  }

  /// `POST /v1/thumbhash`: the hash of the source image; nothing is stored.
  func computeThumbHash(_ request: HTTPRequest) async throws(ArtworkError) -> HTTPResponse {
    let parsed = try ArtworkRequest.parse(request)
    guard parsed.fields.isEmpty else {
      throw ArtworkError(.badRequest, "POST /v1/thumbhash takes no options.")
    }
    let answer: CachedThumbHash
    let sourceURL: String?
    switch parsed.source {
    case .upload:
      answer = try await hash(try await sources.bytes(for: parsed.source))
      sourceURL = nil
    case .url(let url):
      let lookup = try await thumbHashCache.value(
        url: url, variant: "", isUsable: { _ in true },
        produce: { [self] validators throws(ArtworkError) in
          try await produceThumbHash(parsed.source, validators: validators)
        })
      metrics.recordCacheLookup(hit: lookup.hit)
      answer = lookup.payload
      sourceURL = url
    }
    return JSONResponse.make(200, ArtworkApp.thumbHashJSON(answer, sourceURL: sourceURL))
  }

  /// `POST /v1/thumbhash` answered on the server thread from memory, as `rememberedArtwork`.
  func rememberedThumbHash(_ request: HTTPRequest) -> HTTPResponse? {
    guard let parsed = ArtworkRequest.parseJSON(request), case .url(let url) = parsed.source,
      parsed.fields.isEmpty, let answer = try? thumbHashCache.remembered(url: url, variant: "")
    else { return nil }
    metrics.recordCacheLookup(hit: true)
    return JSONResponse.make(200, ArtworkApp.thumbHashJSON(answer, sourceURL: url))
  }

  func produceThumbHash(_ source: SourceInput, validators: Validators?) async throws(ArtworkError)
    -> Produced<CachedThumbHash>
  {
    let input = try await fetch(source, validators: validators)
    if input.notModified { return .notModified(input.validators) }
    return .fresh(try await hash(input), input.validators)
  }

  /// A source URL fetched now, its outcome counted for /metrics.
  func fetch(_ source: SourceInput, validators: Validators?) async throws(ArtworkError)
    -> SourceBytes
  {
    do {
      let input = try await sources.bytes(for: source, validators: validators)
      metrics.recordFetch(outcome: input.notModified ? "not_modified" : "ok")
      return input
    } catch {
      metrics.recordFetch(outcome: error.kind.rawValue)
      throw error
    }
  }

  func hash(_ input: SourceBytes) async throws(ArtworkError) -> CachedThumbHash {
    CachedThumbHash(try await processor.thumbHash(input.bytes, declaredType: input.declaredType))
  }

  /// The public URL of a stored object.
  func imageURL(_ fileName: String) -> String {
    "\(config.publicURL)/v1/images/\(fileName)"
  }
}
