import HTTP

extension ArtworkApp {
  /// Checks that need only the request head, run before any body byte is read: auth, then the
  /// declared body type (the body-size limit is enforced by the HTTP layer at the same point).
  func preflightUpload(_ head: HTTPRequestHead) -> HTTPResponse? {
    if let error = authenticator.check(authorization: head.headers["Authorization"]) {
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
        .unsupportedMediaType, "Send JSON {\"url\": \"https://...\"} with Content-Type application/json.")
      log(error, request: head)
      return error.problemResponse(requestID: head.id)
    }
    return nil
  }

  /// `POST /v1/artwork`: 201 with the hosted URL, shape, ThumbHash and facts of what was stored.
  func createArtwork(_ request: HTTPRequest) async throws(ArtworkError) -> HTTPResponse {
    let parsed = try ArtworkRequest.parse(request)
    let options = try ArtworkOptions(fields: parsed.fields)
    let source = try await sources.bytes(for: parsed.source)
    let created = try await processor.render(
      source.bytes, declaredType: source.declaredType, options: options)
    // Answer only once the object is durably stored: nothing acknowledged is ever lost.
    try await storage.put(created.key, bytes: created.rendered.bytes)
    metrics.artworkCreated(bytes: created.rendered.bytes.count)
    let url = imageURL(created.key)
    let body = ArtworkApp.artworkJSON(
      created, options: options, location: .string(url), sourceURL: source.url)
    return JSONResponse.make(201, body, headers: [("Location", url)])
  }

  /// `POST /v1/thumbhash`: the hash of the source image; nothing is stored.
  func computeThumbHash(_ request: HTTPRequest) async throws(ArtworkError) -> HTTPResponse {
    let parsed = try ArtworkRequest.parse(request)
    guard parsed.fields.isEmpty else {
      throw ArtworkError(.badRequest, "POST /v1/thumbhash takes no options.")
    }
    let source = try await sources.bytes(for: parsed.source)
    let hash = try await processor.thumbHash(source.bytes, declaredType: source.declaredType)
    var members: [(String, JSONValue)] = [
      ("thumbhash", .string(hash.thumbHash)),
      ("width", .int(hash.width)),
      ("height", .int(hash.height)),
      ("average_color", .string(hash.averageColor)),
      ("aspect_ratio", .double(hash.aspectRatio)),
    ]
    members.append(("source", ArtworkApp.sourceJSON(hash.source, url: source.url)))
    return JSONResponse.make(200, .object(members))
  }

  /// The public URL of a stored object.
  func imageURL(_ key: ArtworkKey) -> String {
    "\(config.publicURL)/v1/images/\(key.fileName)"
  }

  /// The answer for created artwork; its first three keys merge into an activity's content.
  /// `location` is the hosted URL (service) or a file path (CLI `process`).
  static func artworkJSON(
    _ created: CreatedArtwork, options: ArtworkOptions, location: JSONValue, sourceURL: String?,
    locationKey: String = "image_url"
  ) -> JSONValue {
    .object([
      (locationKey, location),
      ("image_shape", .string(options.shape.rawValue)),
      ("image_thumbhash", .string(created.thumbHash)),
      ("width", .int(created.rendered.width)),
      ("height", .int(created.rendered.height)),
      ("format", .string(created.rendered.format.rawValue)),
      ("bytes", .int(created.rendered.bytes.count)),
      ("average_color", .string(created.averageColor)),
      ("source", sourceJSON(created.rendered.source, url: sourceURL)),
    ])
  }

  static func sourceJSON(_ source: SourceInfo, url: String?) -> JSONValue {
    var members: [(String, JSONValue)] = []
    if let url { members.append(("url", .string(url))) }
    members += [
      ("format", .string(source.format.rawValue)),
      ("width", .int(source.width)),
      ("height", .int(source.height)),
      ("bytes", .int(source.bytes)),
    ]
    return .object(members)
  }
}
