import HTTP

/// `GET /openapi.json`: public, so readable by tools on any origin (an API explorer, a client
/// generator in a browser), whatever `ARTWORK_CORS_ORIGINS` says about calling the API.
struct OpenAPIHandler: RouteHandler {
  func handle(_ request: HTTPRequest, _ context: Void) -> HTTPResponse {
    var response = EmbeddedFile.openAPI.response(to: request)
    response.headers.set("Access-Control-Allow-Origin", "*")
    return response
  }
}
