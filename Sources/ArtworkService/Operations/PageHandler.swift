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
