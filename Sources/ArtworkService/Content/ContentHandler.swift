import ArtworkCore
import HTTP
import JSON
import Observability
import SafeFetch
import Storage
import WorkerHost

// `POST /v1/content`: a relay's Live Activity content, back with its artwork filled in.

/// Reads the document (or the update form's `stored` and `patch`, merged by the
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
struct ContentHandler: RouteHandler {
  let urlArtwork: URLArtwork
  let hostedThumbHash: HostedThumbHash
  let wait: CallerWait
  let urls: HostedURLs
  let metrics: Metrics
  let logger: Logger

  /// A JSON body (415 otherwise), from the head.
  func check(_ head: inout HTTPRequestHead) throws(ArtworkError) -> WriteContext {
    try BodyCheck.json(
      head,
      refusal: "Send the activity's content object as JSON, with Content-Type application/json.")
  }

  func handle(_ request: HTTPRequest, _ context: WriteContext) async throws(ArtworkError)
    -> HTTPResponse
  {
    let query = try Self.contentOptions(request.query)
    var preferences = RequestPreferences(request.headers)
    preferences.wait = wait.granted(preferences.wait)
    // The wait's clock starts now, before any storage lookup: at N s the answer goes out
    // whatever the store or the origin is doing.
    let deadline = preferences.wait.map { ContinuousClock.now + .seconds($0) }
    // The body is read once; every document below is found in it or written from it.
    let text = try ContentDocument.read(request.body)
    let update = try ContentUpdate(text)
    let document: ContentDocument
    if let update {
      document = try update.merged()
      try document.checkRules(thumbHash: false)
    } else {
      document = try ContentDocument(text, valueAt: text.start..<text.bytes.count)
      try document.checkRules()
    }
    // An update that does not send image_url carries the stored artwork forward as it is.
    let fill =
      if let update, update.patch.value(of: "image_url") == nil {
        ArtworkFill(fields: .unchanged)
      } else {
        try await artworkFill(
          document, query: query, preferences: preferences, deadline: deadline,
          caller: request.caller)
      }
    // The answer, its shape written as the relay does.
    let answered: ContentDocument.Answer
    switch fill.fields {
    case .unchanged: answered = document.answered()
    case .set(let url, let hash): answered = document.answered(imageURL: url, thumbHash: hash)
    case .notFilled:
      // What the relay can push now: the stored artwork carries forward (the update form), or
      // the URL that could not be hosted is left out.
      // A sent hash or shape without its image would pair with the relay's old artwork.
      answered =
        try update?.merged(withoutPatchImage: true).answered()
        ?? ContentDocument.Answer(
          bytes: document.removing(ContentDocument.imageFields), imageFields: [nil, nil, nil])
    }
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
    return JSONResponse.make(200, text: answered.bytes, headers: headers)
  }

  /// The three image fields as compared for `Artwork-Changed`: `image_shape` in lower case.
  static func comparable(_ fields: [JSONValue?]) -> [JSONValue?] {
    fields.enumerated().map { index, value in
      if index == 1, case .string(let shape)? = value { return .string(shape.lowercased()) }
      return value
    }
  }

  /// The artwork of `document`'s `image_url`, within the caller's wait when it has one. Without
  /// a wait a failure is thrown, as `POST /v1/artwork` would; with one it is reported in the
  /// status, and the source's last artwork (when it was hosted before and is still stored) is
  /// answered in its place.
  private func artworkFill(
    _ document: ContentDocument, query: [String: String], preferences: RequestPreferences,
    deadline: ContinuousClock.Instant?, caller: String
  ) async throws(ArtworkError) -> ArtworkFill {
    guard case .url(let url) = document.imageURL else {
      return ArtworkFill(fields: .unchanged)
    }
    let options: ArtworkOptions?
    let work: @Sendable () async throws(ArtworkError) -> ArtworkFill
    if let key = urls.key(of: url) {
      options = nil
      work = { [hostedThumbHash] () throws(ArtworkError) in
        let hash = try await hostedThumbHash.thumbHash(key, url: url)
        return ArtworkFill(fields: .set(url: nil, hash: hash), status: "ready")
      }
    } else {
      var fields = query
      fields["shape"] = document.shape ?? "square"
      let made = try ArtworkOptions(fields: fields)
      options = made
      work = { [urlArtwork, urls] () throws(ArtworkError) in
        let (answer, age) = try await urlArtwork.artwork(
          from: url, options: made, revalidate: preferences.revalidate, caller: caller)
        return ArtworkFill(
          fields: .set(url: urls.url(fileName: answer.fileName), hash: answer.thumbHash),
          status: "ready", age: age)
      }
    }
    guard let deadline else { return try await work() }
    // What memory holds is answered without a race against the wait (`wait=0` included).
    let outcome = await self.wait.outcome(
      until: deadline,
      remembered: { () throws(ArtworkError) in
        try rememberedFill(url: url, options: options, preferences: preferences, caller: caller)
      }, work)
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
    // The source's last artwork, when it has one that is still stored and storage says so
    // within the wait.
    if let last = await wait.answer(
      afterWaitEnding: deadline,
      { [urlArtwork] in await urlArtwork.lastStored(url: url, options: options, caller: caller) })
    {
      return ArtworkFill(
        fields: .set(url: urls.url(fileName: last.fileName), hash: last.thumbHash),
        status: status)
    }
    return ArtworkFill(fields: .notFilled, status: status)
  }

  /// The fill of `url` from a result in memory, without waiting on anything: nil when there is
  /// none (or the caller asks the origin again); a remembered failure is thrown.
  private func rememberedFill(
    url: String, options: ArtworkOptions?, preferences: RequestPreferences, caller: String
  ) throws(ArtworkError) -> ArtworkFill? {
    guard !preferences.revalidate else { return nil }
    guard let options else {
      let hash = try hostedThumbHash.remembered(url: url)
      return hash.map { ArtworkFill(fields: .set(url: nil, hash: $0), status: "ready") }
    }
    guard let (answer, age) = try urlArtwork.remembered(url: url, options: options, caller: caller)
    else { return nil }
    return ArtworkFill(
      fields: .set(url: urls.url(fileName: answer.fileName), hash: answer.thumbHash),
      status: "ready", age: age)
  }

  /// `size` and `crop` from the query string (checked now, before the document is read); the
  /// shape is the document's `image_shape`.
  private static func contentOptions(_ query: [String: String]) throws(ArtworkError) -> [String:
    String]
  {
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
}
