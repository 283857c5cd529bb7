import HTTP
import ThumbHashCodec

extension ArtworkApp {
  /// `GET|HEAD /v1/images/{id}.{ext}`: stored artwork, immutable and content-addressed.
  /// A name that is not a well-formed key is a 404 before storage is consulted.
  func serveImage(_ request: HTTPRequest) async throws(ArtworkError) -> HTTPResponse {
    let name = request.pathParameters["name"] ?? ""
    guard let key = ArtworkKey(fileName: name) else {
      throw ArtworkError(.notFound, "No image is stored under \(name.prefix(80)).")
    }
    let etag = "\"\(key.id.hex)\""
    var headers = HTTPHeaders()
    headers.set("ETag", etag)
    headers.set("Cache-Control", "public, max-age=31536000, immutable")
    headers.set("X-Content-Type-Options", "nosniff")
    let cached = hotImages.bytes(key)
    if let ifNoneMatch = request.headers["If-None-Match"],
      ArtworkApp.matches(ifNoneMatch, etag: etag)
    {
      // A 304 still needs proof that the object exists: ids are public, objects may be expired.
      if cached == nil, try await storage.head(key) == nil {
        throw ArtworkError(.notFound, "No image is stored under \(key.fileName).")
      }
      return HTTPResponse(status: 304, headers: headers, body: .empty)
    }
    headers.set("Content-Type", key.format.contentType)
    if let cached { return HTTPResponse(status: 200, headers: headers, body: .bytes(cached)) }
    guard let object = try await storage.stream(key) else {
      throw ArtworkError(.notFound, "No image is stored under \(key.fileName).")
    }
    // Small objects arrive whole with the first read: answer them in one piece, and keep them.
    if let complete = object.complete {
      hotImages.insert(key, complete)
      return HTTPResponse(status: 200, headers: headers, body: .bytes(complete))
    }
    return HTTPResponse(
      status: 200, headers: headers, body: .stream(length: object.length, next: object.next))
  }

  /// Whether an `If-None-Match` value matches `etag` (weak comparison, RFC 9110 13.1.2).
  static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
    for candidate in ifNoneMatch.split(separator: ",") {
      var tag = candidate.trimmingCharacters(in: .whitespaces)
      if tag == "*" { return true }
      if tag.hasPrefix("W/") { tag.removeFirst(2) }
      if tag == etag { return true }
    }
    return false
  }

  /// `GET /v1/thumbhash/{hash}.png`: the placeholder a ThumbHash decodes to. The hash is base64
  /// (standard or URL-safe alphabet, padding optional); a `/` in it must be sent as `%2F` or `_`.
  func thumbHashPNG(_ request: HTTPRequest) throws(ArtworkError) -> HTTPResponse {
    let name = request.pathParameters["name"] ?? ""
    guard name.hasSuffix(".png") else {
      throw ArtworkError(.notFound, "ThumbHash images are served as /v1/thumbhash/{hash}.png.")
    }
    let text = String(name.dropLast(4))
      .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    let png: [UInt8]
    do {
      let image = try ThumbHash.decode(try ThumbHashBase64.decode(text))
      png = ThumbHash.pngData(image)
    } catch {
      throw ArtworkError(
        .badRequest, "\(text.prefix(64)) is not a valid ThumbHash (base64 of a ThumbHash's bytes).",
        internalDetail: "\(error)")
    }
    var headers = HTTPHeaders()
    headers.set("Content-Type", "image/png")
    headers.set("Cache-Control", "public, max-age=31536000, immutable")
    headers.set("X-Content-Type-Options", "nosniff")
    return HTTPResponse(status: 200, headers: headers, body: .bytes(png))
  }
}
