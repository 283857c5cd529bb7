import ArtworkCore
import HTTP

// `GET /` (the page for people), `GET /assets/{name}` (its script, style and icon) and
// `GET /openapi.json` (the contract for machines), all built into the binary.

extension ArtworkApp {
  /// `GET /`: the page, under a Content-Security-Policy that lets it load nothing but its own
  /// files and talk to nothing but this service (no inline script or style anywhere).
  func page(_ request: HTTPRequest) -> HTTPResponse {
    var response = ArtworkApp.fileResponse(EmbeddedFile.page, request)
    response.headers.set("Content-Security-Policy", pagePolicy)
    response.headers.set("Referrer-Policy", "no-referrer")
    return response
  }

  /// `GET /assets/{name}`.
  func pageAsset(_ request: HTTPRequest) throws(ArtworkError) -> HTTPResponse {
    let name = request.pathParameter("name") ?? ""
    guard let file = EmbeddedFile.assets[name] else {
      throw ArtworkError(.notFound, "The page has no asset \(ClientText.quoted(name)).")
    }
    return ArtworkApp.fileResponse(file, request)
  }

  /// `GET /openapi.json`: public, so readable by tools on any origin (an API explorer, a client
  /// generator in a browser), whatever `ARTWORK_CORS_ORIGINS` says about calling the API.
  func openAPIDocument(_ request: HTTPRequest) -> HTTPResponse {
    var response = ArtworkApp.fileResponse(EmbeddedFile.openAPI, request)
    response.headers.set("Access-Control-Allow-Origin", "*")
    return response
  }

  /// The page's policy. Hosted images come from `ARTWORK_PUBLIC_URL`, which may be another
  /// origin (a CDN); a file chosen for upload is previewed from a `blob:` URL.
  var pagePolicy: String {
    [
      "default-src 'self'", "img-src 'self' blob: \(config.publicOrigin)", "object-src 'none'",
      "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")
  }

  /// 200 with `file` (304 when the client holds its bytes already). The bytes change only with
  /// the binary, so a client revalidates each time (`no-cache`) and mostly gets a 304.
  private static func fileResponse(_ file: EmbeddedFile, _ request: HTTPRequest) -> HTTPResponse {
    var headers = HTTPHeaders()
    headers.set("Cache-Control", "no-cache")
    headers.set("ETag", file.etag)
    headers.set("X-Content-Type-Options", "nosniff")
    if let ifNoneMatch = request.headers["If-None-Match"], matches(ifNoneMatch, etag: file.etag) {
      return HTTPResponse(status: 304, headers: headers, body: .empty)
    }
    headers.set("Content-Type", file.contentType)
    return HTTPResponse(status: 200, headers: headers, body: .bytes(file.bytes))
  }
}
