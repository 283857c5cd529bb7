import ArtworkCore
import HTTP

/// `GET /healthz`: 200 while the process serves, with the libvips version its workers decode
/// with (`{"status":"ok","libvips":"8.14.1"}`), as they said when they started.
struct HealthHandler: RouteHandler {
  let libvips: String

  func handle(_ request: HTTPRequest, _ context: Void) -> HTTPResponse {
    JSONResponse.make(200, .object([("status", .string("ok")), ("libvips", .string(libvips))]))
  }
}
