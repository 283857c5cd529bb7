import ArtworkCore
import HTTP
import Storage

// `GET|HEAD /v1/images/{id}.{ext}`: stored artwork, immutable and content-addressed;
// `{id}.json` answers the image's facts.

/// A name that is not a well-formed key is a 404 before storage is consulted. An image in the
/// hot-image cache is answered on the server thread. Any other is, on the filesystem, sent from
/// its stored file, kept open in the cache; elsewhere (S3) read from storage, and kept in the
/// cache's memory when small and, once the cache is full, asked for again (`admits`).
struct ImageHandler: RouteHandler {
  let storage: any ArtworkStorage
  /// The storage when its objects are files here (`FileSystemStorage`).
  let files: (any ObjectFiles)?
  let hotImages: HotImageCache
  let facts: ImageFactsStore
  let urls: HostedURLs

  /// The image when it is in the hot-image cache; nil otherwise (`handle` answers, errors
  /// included).
  func answerFromMemory(_ request: HTTPRequest, _ context: inout Void) -> HTTPResponse? {
    guard let name = request.pathParameterBytes("name"), let key = ArtworkKey(fileNameBytes: name),
      let cached = hotImages.image(key, countingMiss: false)
    else { return nil }
    return Self.response(key, .shared(cached.body), request, headers: cached.headers)
  }

  func handle(_ request: HTTPRequest, _ context: Void) async throws(ArtworkError) -> HTTPResponse {
    let name = request.pathParameter("name") ?? ""
    if name.hasSuffix(".json") { return try await factsResponse(name) }
    guard let key = ArtworkKey(fileName: name) else {
      throw ArtworkError(.notFound, "No image is stored under \(ClientText.quoted(name)).")
    }
    if let cached = hotImages.image(key) {
      return Self.response(key, .shared(cached.body), request, headers: cached.headers)
    }
    if EntityTag.isNotModified(request, etag: ImageHeaders.etag(key)) {
      // A 304 still needs proof that the object exists: ids are public, objects may be expired.
      guard try await storage.head(key) != nil else {
        throw ArtworkError(.notFound, "No image is stored under \(key.fileName).")
      }
      return HTTPResponse(status: 304, headers: ImageHeaders.of(key, body: false), body: .empty)
    }
    if let files, SharedBody.hasRoomForFile {
      guard let opened = try await files.openObject(key) else {
        throw ArtworkError(.notFound, "No image is stored under \(key.fileName).")
      }
      // Nil only when body files took their share of descriptors meanwhile: read it instead.
      if let body = SharedBody(adoptingFile: opened.descriptor, count: opened.length) {
        var headers = ImageHeaders.of(key, body: true)
        headers.prepare()
        hotImages.insert(key, body, headers: headers)
        return Self.response(key, .shared(body), request, headers: headers)
      }
    }
    guard let object = try await storage.stream(key) else {
      throw ArtworkError(.notFound, "No image is stored under \(key.fileName).")
    }
    // Small objects arrive whole with the first read: answer them in one piece, and keep them.
    if let complete = object.complete {
      var headers = ImageHeaders.of(key, body: true)
      guard hotImages.admits(key, count: complete.count) else {
        return Self.response(key, .bytes(complete), request, headers: headers)
      }
      // Made once: every later GET of this image copies the head's bytes and sends the body
      // from its file.
      headers.prepare()
      let body = SharedBody(complete)
      hotImages.insert(key, body, headers: headers)
      return Self.response(key, .shared(body), request, headers: headers)
    }
    return HTTPResponse(
      status: 200, headers: ImageHeaders.of(key, body: true),
      body: .stream(length: object.length, next: object.next))
  }

  /// `GET|HEAD /v1/images/{id}.json`: the facts stored beside the object, or, for an image
  /// stored before facts were kept, worked out from its bytes (in a worker) and stored for the
  /// next time. 404 for an id that is not stored, facts or not.
  private func factsResponse(_ name: String) async throws(ArtworkError) -> HTTPResponse {
    let idText = String(name.dropLast(".json".count))
    guard let id = ArtworkID(hex: idText) else {
      throw ArtworkError(.notFound, "No image is stored under \(ClientText.quoted(name)).")
    }
    guard let facts = try await facts.facts(of: id) else {
      throw ArtworkError(.notFound, "No image is stored under \(id.hex).")
    }
    return JSONResponse.make(200, facts.json(urls: urls))
  }

  /// 200 with the object's bytes and `headers` (its 200 fields, built when it was cached), or
  /// 304 when the client holds them already.
  private static func response(
    _ key: ArtworkKey, _ body: HTTPBody, _ request: HTTPRequest, headers: HTTPHeaders
  ) -> HTTPResponse {
    if EntityTag.isNotModified(request, etag: ImageHeaders.etag(key)) {
      return HTTPResponse(status: 304, headers: ImageHeaders.of(key, body: false), body: .empty)
    }
    return HTTPResponse(status: 200, headers: headers, body: body)
  }
}
