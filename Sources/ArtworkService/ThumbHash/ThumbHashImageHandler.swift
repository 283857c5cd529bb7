import ArtworkCore
import HTTP
import ThumbHashCodec

/// `GET /v1/thumbhash/{hash}.png`: the placeholder a ThumbHash decodes to. The hash is base64
/// (standard or URL-safe alphabet, padding optional); a `/` in it must be sent as `%2F` or `_`.
struct ThumbHashImageHandler: RouteHandler {
  func handle(_ request: HTTPRequest, _ context: Void) throws(ArtworkError) -> HTTPResponse {
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
      status: 200, headers: ImageHeaders.immutable(contentType: "image/png"), body: .bytes(png))
  }
}
