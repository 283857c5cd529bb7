import ArtworkCore
import HTTP

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
