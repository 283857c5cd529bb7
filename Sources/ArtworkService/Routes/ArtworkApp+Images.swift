import ArtworkCore
import HTTP
import ThumbHashCodec

extension ArtworkApp {
  /// `GET|HEAD /v1/images/{id}.{ext}`: stored artwork, immutable and content-addressed.
  /// A name that is not a well-formed key is a 404 before storage is consulted; `{id}.json`
  /// answers the image's facts (`serveImageFacts`).
  func serveImage(_ request: HTTPRequest) async throws(ArtworkError) -> HTTPResponse {
    let name = request.pathParameter("name") ?? ""
    if name.hasSuffix(".json") { return try await serveImageFacts(name) }
    guard let key = ArtworkKey(fileName: name) else {
      throw ArtworkError(.notFound, "No image is stored under \(ClientText.quoted(name)).")
    }
    if let cached = hotImages.image(key) {
      return imageResponse(key, .shared(cached.body), request, headers: cached.headers)
    }
    if isNotModified(request, key) {
      // A 304 still needs proof that the object exists: ids are public, objects may be expired.
      guard try await storage.head(key) != nil else {
        throw ArtworkError(.notFound, "No image is stored under \(key.fileName).")
      }
      return HTTPResponse(status: 304, headers: imageHeaders(key, body: false), body: .empty)
    }
    guard let object = try await storage.stream(key) else {
      throw ArtworkError(.notFound, "No image is stored under \(key.fileName).")
    }
    // Small objects arrive whole with the first read: answer them in one piece, and keep them.
    if let complete = object.complete {
      var headers = imageHeaders(key, body: true)
      guard hotImages.keeps(complete.count) else {
        return imageResponse(key, .bytes(complete), request, headers: headers)
      }
      // Made once: every later GET of this image copies the head's bytes and sends the body
      // from its file.
      headers.prepare()
      let body = SharedBody(complete)
      hotImages.insert(key, body, headers: headers)
      return imageResponse(key, .shared(body), request, headers: headers)
    }
    return HTTPResponse(
      status: 200, headers: imageHeaders(key, body: true),
      body: .stream(length: object.length, next: object.next))
  }

  /// `GET|HEAD /v1/images/{id}.{ext}` answered on the server thread when the image is in the
  /// hot-image cache; nil otherwise (`serveImage` answers, errors included).
  func rememberedImage(_ request: HTTPRequest) -> HTTPResponse? {
    guard let name = request.pathParameterBytes("name"), let key = ArtworkKey(fileNameBytes: name),
      let cached = hotImages.image(key, countingMiss: false)
    else { return nil }
    return imageResponse(key, .shared(cached.body), request, headers: cached.headers)
  }

  /// 200 with the object's bytes and `headers` (its 200 fields, built when it was cached), or
  /// 304 when the client holds them already.
  private func imageResponse(
    _ key: ArtworkKey, _ body: HTTPBody, _ request: HTTPRequest, headers: HTTPHeaders
  ) -> HTTPResponse {
    if isNotModified(request, key) {
      return HTTPResponse(status: 304, headers: imageHeaders(key, body: false), body: .empty)
    }
    return HTTPResponse(status: 200, headers: headers, body: body)
  }

  private func isNotModified(_ request: HTTPRequest, _ key: ArtworkKey) -> Bool {
    guard let ifNoneMatch = request.headers["If-None-Match"] else { return false }
    return ArtworkApp.matches(ifNoneMatch, etag: ArtworkApp.etag(key))
  }

  /// Content-addressed: immutable, and the ETag is the id.
  private func imageHeaders(_ key: ArtworkKey, body: Bool) -> HTTPHeaders {
    var headers = ArtworkApp.immutableHeaders(contentType: body ? key.format.contentType : nil)
    headers.set("ETag", ArtworkApp.etag(key))
    return headers
  }

  /// Headers of a body that never changes under its URL: cached for a year anywhere, its
  /// declared type never second-guessed by a browser, and readable by a page on any origin
  /// (into a canvas, by `fetch`): it is public by its URL, whatever `ARTWORK_CORS_ORIGINS` says.
  private static func immutableHeaders(contentType: String?) -> HTTPHeaders {
    var headers = HTTPHeaders()
    headers.set("Cache-Control", ArtworkKey.cacheControl)
    headers.set("X-Content-Type-Options", "nosniff")
    headers.set("Access-Control-Allow-Origin", "*")
    headers.set("Cross-Origin-Resource-Policy", "cross-origin")
    if let contentType { headers.set("Content-Type", contentType) }
    return headers
  }

  static func etag(_ key: ArtworkKey) -> String { "\"\(key.id.hex)\"" }

  /// Whether an `If-None-Match` value matches `etag` (weak comparison, RFC 9110 13.1.2).
  static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
    for candidate in ifNoneMatch.split(separator: ",") {
      var tag = HeaderSyntax.trimmed(String(candidate))
      if tag == "*" { return true }
      if tag.hasPrefix("W/") { tag.removeFirst(2) }
      if tag == etag { return true }
    }
    return false
  }

  /// `GET /v1/thumbhash/{hash}.png`: the placeholder a ThumbHash decodes to. The hash is base64
  /// (standard or URL-safe alphabet, padding optional); a `/` in it must be sent as `%2F` or `_`.
  func thumbHashPNG(_ request: HTTPRequest) throws(ArtworkError) -> HTTPResponse {
    let name = request.pathParameter("name") ?? ""
    guard name.hasSuffix(".png") else {
      throw ArtworkError(.notFound, "ThumbHash images are served as /v1/thumbhash/{hash}.png.")
    }
    // The decoder reads both the standard and the URL-safe alphabet.
    let text = String(name.dropLast(4))
    let png: [UInt8]
    do {
      let image = try ThumbHash.decode(try ThumbHashBase64.decode(text))
      png = ThumbHash.pngData(image)
    } catch {
      throw ArtworkError(
        .badRequest,
        "\(ClientText.quoted(text)) is not a valid ThumbHash (base64 of a ThumbHash's bytes).",
        internalDetail: "\(error)")
    }
    return HTTPResponse(
      status: 200, headers: ArtworkApp.immutableHeaders(contentType: "image/png"), body: .bytes(png)
    )
  }
}
