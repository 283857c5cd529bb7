import ArtworkCore
import HTTP
import ImageWorkers
import SafeFetch
import Storage

// `POST /v1/content`: a relay's Live Activity content, back with its artwork filled in.

extension ArtworkApp {
  /// The handler: read the document (or the update form's `stored` and `patch`, merged by the
  /// relay's rules), then
  /// - `image_url` absent or null: the document as sent;
  /// - `image_url` one of our hosted URLs: `image_thumbhash` from the stored object, nothing
  ///   fetched;
  /// - any other URL: fetched and framed as `POST /v1/artwork` would (`image_shape` from the
  ///   document, `size` and `crop` from the query), through the same result cache, and both
  ///   fields set from what was stored.
  ///
  /// With `Prefer: wait=N` the artwork is waited for at most N seconds: past that, or when the
  /// source fails, the document still comes back (200) without the image fields that could not
  /// be filled, or with this source's last artwork, and `Artwork-Status` says which.
  func fillContent(_ request: HTTPRequest, _ context: WriteContext) async throws(ArtworkError)
    -> HTTPResponse
  {
    let query = try contentOptions(request.query)
    var preferences = RequestPreferences(request.headers)
    preferences.wait = grantedWait(preferences.wait)
    let update = try ContentUpdate(parsing: request.body)
    let document =
      if let update {
        try ContentDocument(parsing: try update.merged(), checkingThumbHash: false)
      } else {
        try ContentDocument(parsing: request.body)
      }
    // An update that does not send image_url carries the stored artwork forward as it is.
    let fill =
      if let update, update.patch.value(of: "image_url") == nil {
        ArtworkFill(fields: .unchanged)
      } else {
        try await artworkFill(document, query: query, preferences: preferences)
      }
    var body: [UInt8]
    switch fill.fields {
    case .unchanged: body = document.bytes
    case .set(let url, let hash): body = document.filled(imageURL: url, thumbHash: hash)
    case .notFilled:
      // What the relay can push now: the stored artwork carries forward (the update form), or
      // the URL that could not be hosted is left out.
      // A sent hash or shape without its image would pair with the relay's old artwork.
      body =
        try update?.merged(withoutPatchImage: true)
        ?? document.removing(ContentDocument.imageFields)
    }
    // The answer read once: its shape written as the relay does, its image fields compared.
    let answered = try ContentDocument(parsing: body, checkingRules: false)
    body = answered.lowercasingShape()
    var headers: [(String, String)] = []
    if let status = fill.status {
      headers.append(("Artwork-Status", status))
      metrics.recordContentArtwork(status: status)
    }
    if let wait = preferences.wait { headers.append(("Preference-Applied", "wait=\(wait)")) }
    if let age = fill.age { headers.append(("Age", String(age))) }
    if let update {
      // A shape only written in another case is the same shape.
      let changed =
        Self.comparable(answered.imageFields) != Self.comparable(update.stored.imageFields)
      headers.append(("Artwork-Changed", changed ? "true" : "false"))
    }
    return JSONResponse.make(200, text: body, headers: headers)
  }

  /// The three image fields as compared for `Artwork-Changed`: `image_shape` in lower case.
  static func comparable(_ fields: [JSONValue?]) -> [JSONValue?] {
    fields.enumerated().map { index, value in
      if index == 1, case .string(let shape)? = value { return .string(shape.lowercased()) }
      return value
    }
  }

  /// What becomes of a document's image fields.
  struct ArtworkFill: Sendable {
    enum Fields: Sendable {
      /// No image_url to fill: the document as it is.
      case unchanged
      /// `image_url` (when not nil) and `image_thumbhash` set to these.
      case set(url: String?, hash: String)
      /// The artwork could not be had in time (or at all): no image fields from this source.
      case notFilled
    }
    var fields: Fields
    /// `Artwork-Status`: `ready`, `pending` or `failed; reason="..."` (nil: no image_url).
    var status: String?
    /// The age of a remembered result (the `Age` header).
    var age: Int?
  }

  /// The artwork of `document`'s `image_url`, within the caller's wait when it has one. Without
  /// a wait a failure is thrown, as `POST /v1/artwork` would; with one it is reported in the
  /// status, and the source's last artwork (when it was hosted before and is still stored) is
  /// answered in its place.
  private func artworkFill(
    _ document: ContentDocument, query: [String: String], preferences: RequestPreferences
  ) async throws(ArtworkError) -> ArtworkFill {
    guard case .url(let url) = document.imageURL else {
      return ArtworkFill(fields: .unchanged)
    }
    let options: ArtworkOptions?
    let work: @Sendable () async throws(ArtworkError) -> ArtworkFill
    if let key = hostedKey(url) {
      options = nil
      work = { [self] () throws(ArtworkError) in
        let hash = try await storedThumbHash(key, url: url)
        return ArtworkFill(fields: .set(url: nil, hash: hash), status: "ready")
      }
    } else {
      var fields = query
      fields["shape"] = document.shape ?? "square"
      let made = try ArtworkOptions(fields: fields)
      options = made
      work = { [self] () throws(ArtworkError) in
        let (answer, age) = try await artwork(
          from: url, options: made, revalidate: preferences.revalidate)
        return ArtworkFill(
          fields: .set(url: config.imageURL(fileName: answer.fileName), hash: answer.thumbHash),
          status: "ready", age: age)
      }
    }
    guard let wait = preferences.wait else { return try await work() }
    // What memory holds is answered without a race against the wait (`wait=0` included).
    let remembered: Result<ArtworkFill, ArtworkError>?
    do throws(ArtworkError) {
      remembered = try rememberedFill(url: url, options: options, preferences: preferences)
        .map { .success($0) }
    } catch {
      remembered = .failure(error)
    }
    let outcome: BoundedWait.Outcome<ArtworkFill>
    if let remembered {
      outcome = .finished(remembered)
    } else {
      outcome = await BoundedWait.run(atMost: wait, work)
    }
    let status: String
    switch outcome {
    case .finished(.success(let fill)): return fill
    case .finished(.failure(let error)):
      logger.log(
        .info, "content answered without its artwork: the source failed",
        ["error": .string(error.kind.rawValue), "detail": .string(error.detail)])
      status = "failed; reason=\"\(error.kind.rawValue)\""
    case .pending:
      status = "pending"
    }
    // One of our hosted URLs is already what a phone loads: it stays, with the hash as sent.
    guard let options else { return ArtworkFill(fields: .unchanged, status: status) }
    // The source's last artwork, when it has one that is still stored.
    if let last = await artworkResults.lastKnown(url: url, variant: options.cacheKey),
      let key = ArtworkKey(fileName: last.fileName), (try? await storage.head(key)) != nil
    {
      return ArtworkFill(
        fields: .set(url: config.imageURL(fileName: last.fileName), hash: last.thumbHash),
        status: status)
    }
    return ArtworkFill(fields: .notFilled, status: status)
  }

  /// The fill of `url` from a result in memory, without waiting on anything: nil when there is
  /// none (or the caller asks the origin again); a remembered failure is thrown.
  private func rememberedFill(
    url: String, options: ArtworkOptions?, preferences: RequestPreferences
  ) throws(ArtworkError) -> ArtworkFill? {
    guard !preferences.revalidate else { return nil }
    guard let options else {
      let hash = try thumbHashResults.remembered(url: url, variant: "stored")
      return hash.map { ArtworkFill(fields: .set(url: nil, hash: $0.0.thumbHash), status: "ready") }
    }
    guard let (answer, age) = try artworkResults.remembered(url: url, variant: options.cacheKey)
    else { return nil }
    return ArtworkFill(
      fields: .set(url: config.imageURL(fileName: answer.fileName), hash: answer.thumbHash),
      status: "ready", age: age)
  }

  /// `size` and `crop` from the query string (checked now, before the document is read); the
  /// shape is the document's `image_shape`.
  private func contentOptions(_ query: [String: String]) throws(ArtworkError) -> [String: String] {
    if query["shape"] != nil {
      throw ArtworkError(
        .badRequest, "The shape comes from the document's image_shape, not the query string.")
    }
    if let unknown = query.keys.sorted().first(where: { !["size", "crop"].contains($0) }) {
      throw ArtworkError(
        .badRequest,
        "\(ClientText.quoted(unknown)) is not an option of /v1/content; use size and crop.")
    }
    _ = try ArtworkOptions(fields: query)
    return query
  }

  /// The key of `url` when it is one of our hosted image URLs (`{ARTWORK_PUBLIC_URL}/v1/images/
  /// {id}.{ext}`, nothing after the name), else nil.
  func hostedKey(_ url: String) -> ArtworkKey? {
    let prefix = config.publicURL + "/v1/images/"
    guard url.hasPrefix(prefix) else { return nil }
    return ArtworkKey(fileName: String(url.dropFirst(prefix.count)))
  }

  /// The ThumbHash of a stored object, computed from its bytes (as `POST /v1/artwork` computed
  /// it) and remembered like a URL's, so a relay's repeat costs nothing.
  private func storedThumbHash(_ key: ArtworkKey, url: String) async throws(ArtworkError)
    -> String
  {
    let lease: ResultCache<ThumbHashAnswer>.Lease
    switch try await lookUp(url, variant: "stored", in: thumbHashResults) {
    case .answer(let answer, _): return answer.thumbHash
    case .produce(let started): lease = started
    }
    do throws(ArtworkError) {
      // The facts kept beside the object hold its hash (worked out once for older images).
      guard let facts = try await facts(of: key.id), facts.fileName == key.fileName else {
        throw ArtworkError(
          .unprocessableContent,
          "image_url names a hosted image that is no longer stored (\(key.fileName)); send its source URL again to host it anew."
        )
      }
      return try await lease.produced(ThumbHashAnswer(facts), validators: Validators()).thumbHash
    } catch {
      return try await lease.failed(error).thumbHash
    }
  }
}
