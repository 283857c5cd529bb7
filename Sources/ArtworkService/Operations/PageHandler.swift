import ArtworkCore
import HTTP

// `GET /` (the page for people), `GET /assets/{name}` (its script, style and icon) and
// `GET /openapi.json` (the contract for machines), all built into the binary.

/// `GET /`: the page, under a Content-Security-Policy that lets it load nothing but its own
/// files and talk to nothing but this service (no inline script or style anywhere).
struct PageHandler: RouteHandler {
  /// The page's policy. Hosted images come from `ARTWORK_PUBLIC_URL`, which may be another
  /// origin (a CDN); a file chosen for upload is previewed from a `blob:` URL.
  let policy: String

  init(urls: HostedURLs) {
    policy = [
      "default-src 'self'", "img-src 'self' blob: \(urls.origin)", "object-src 'none'",
      "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")
  }

  func handle(_ request: HTTPRequest, _ context: Void) -> HTTPResponse {
    var response = EmbeddedFile.page.response(to: request)
    response.headers.set("Content-Security-Policy", policy)
    response.headers.set("Referrer-Policy", "no-referrer")
    return response
  }
}

/// `GET /assets/{name}`.
struct PageAssetHandler: RouteHandler {
  func handle(_ request: HTTPRequest, _ context: Void) throws(ArtworkError) -> HTTPResponse {
    let name = request.pathParameter("name") ?? ""
    guard let file = EmbeddedFile.assets[name] else {
      throw ArtworkError(.notFound, "The page has no asset \(ClientText.quoted(name)).")
    }
    return file.response(to: request)
  }
}

/// `GET /openapi.json`: public, so readable by tools on any origin (an API explorer, a client
/// generator in a browser), whatever `ARTWORK_CORS_ORIGINS` says about calling the API.
struct OpenAPIHandler: RouteHandler {
  func handle(_ request: HTTPRequest, _ context: Void) -> HTTPResponse {
    var response = EmbeddedFile.openAPI.response(to: request)
    response.headers.set("Access-Control-Allow-Origin", "*")
    return response
  }
}
