import ArtworkCore
import HTTP

/// `GET /healthz`: 200 while the process serves.
struct HealthHandler: RouteHandler {
  func handle(_ request: HTTPRequest, _ context: Void) -> HTTPResponse {
    JSONResponse.make(200, .object([("status", .string("ok"))]))
  }
}
