import HTTP

extension ArtworkApp {
  /// Checks that need only the request head, run before any body byte is read, in the order of
  /// the API: auth, then the declared body size, then the declared body type. (The HTTP layer
  /// also enforces the size limit after this, and while a body without a length arrives.)
  func preflightUpload(_ head: HTTPRequestHead) -> HTTPResponse? {
    if let error = authenticator.check(authorization: head.headers["Authorization"]) {
      log(error, request: head)
      return error.problemResponse(requestID: head.id)
    }
    if let declared = head.headers["Content-Length"].flatMap({ Int($0) }),
      declared > maxUploadBodyBytes
    {
      let error = ArtworkError(
        .payloadTooLarge,
        "The request body is \(declared) bytes; the limit is \(maxUploadBodyBytes) bytes.")
      log(error, request: head)
      return error.problemResponse(requestID: head.id)
    }
    do {
      try ArtworkRequest.checkContentType(mediaTypeEssence(head.headers["Content-Type"] ?? ""))
    } catch {
      log(error, request: head)
      return error.problemResponse(requestID: head.id)
    }
    return nil
  }

  /// Auth and a JSON content type, for `POST /v1/check`.
  func preflightJSON(_ head: HTTPRequestHead) -> HTTPResponse? {
    if let error = authenticator.check(authorization: head.headers["Authorization"]) {
      log(error, request: head)
      return error.problemResponse(requestID: head.id)
    }
    let essence = mediaTypeEssence(head.headers["Content-Type"] ?? "")
    guard essence == "application/json" else {
      let error = ArtworkError(
        .unsupportedMediaType,
        "Send JSON {\"url\": \"https://...\"} with Content-Type application/json.")
      log(error, request: head)
      return error.problemResponse(requestID: head.id)
    }
    return nil
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
    try await storage.put(created.key, bytes: created.rendered.bytes)
    metrics.recordArtworkCreated(bytes: created.rendered.bytes.count)
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

  /// `POST /v1/check`: would a phone load this URL? One verdict per rule, then advice.
  func checkURL(_ request: HTTPRequest) async throws(ArtworkError) -> HTTPResponse {
    let parsed = try ArtworkRequest.parse(request)
    guard case .url(let url) = parsed.source, parsed.fields.isEmpty else {
      throw ArtworkError(.badRequest, "Send JSON {\"url\": \"https://...\"} and nothing else.")
    }
    let report = try await sources.reachability.check(url)
    return JSONResponse.make(200, ArtworkApp.reportJSON(report))
  }

  /// The public URL of a stored object.
  func imageURL(_ fileName: String) -> String {
    "\(config.publicURL)/v1/images/\(fileName)"
  }

  /// The answer for created artwork; its first three keys merge into an activity's content.
  /// `location` is the hosted URL (service) or a file path (CLI `process`).
  static func artworkJSON(_ answer: CachedArtwork, location: String, sourceURL: String?)
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
      ("source", sourceJSON(answer.source, url: sourceURL)),
    ])
  }

  static func thumbHashJSON(_ answer: CachedThumbHash, sourceURL: String?) -> JSONValue {
    .object([
      ("thumbhash", .string(answer.thumbHash)),
      ("width", .int(answer.source.width)),
      ("height", .int(answer.source.height)),
      ("average_color", .string(answer.averageColor)),
      ("aspect_ratio", .double(answer.aspectRatio)),
      ("source", sourceJSON(answer.source, url: sourceURL)),
    ])
  }

  static func sourceJSON(_ source: CachedSource, url: String?) -> JSONValue {
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

  static func reportJSON(_ report: ReachabilityReport) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("url", .string(report.url)),
      ("ok", .bool(report.ok)),
      (
        "checks",
        .array(
          report.checks.map { check in
            .object([
              ("name", .string(check.name)), ("ok", .bool(check.ok)),
              ("reason", .string(check.reason)),
            ])
          })
      ),
      ("advice", .array(report.advice.map { .string($0) })),
    ]
    if let format = report.format { members.append(("format", .string(format))) }
    if let width = report.width { members.append(("width", .int(width))) }
    if let height = report.height { members.append(("height", .int(height))) }
    return .object(members)
  }
}
