import ArtworkCore
import JSON

extension ImageFacts {
  /// The body of `GET /v1/images/{id}.json`: `POST /v1/artwork`'s names for the same facts.
  /// Public (the id rides in every phone's `image_url`): the source URL without its query.
  func json(urls: HostedURLs) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("id", .string(String(image.fileName.prefix { $0 != "." }))),
      ("image_url", .string(urls.url(fileName: image.fileName))),
      ("image_shape", .string(image.shape)),
      ("image_shapes", .array(allShapes.map(JSONValue.string))),
      ("image_thumbhash", .string(image.thumbHash)),
      ("width", .int(image.width)),
      ("height", .int(image.height)),
      ("format", .string(image.format)),
      ("bytes", .int(image.bytes)),
      ("average_color", .string(image.averageColor)),
      ("created_at", createdAt.map { .string(ImageFacts.timestamp($0)) } ?? .null),
      ("source_url", sourceURL.map { .string(PublicSourceURL.of($0)) } ?? .null),
    ]
    if let source { members.append(("source", AnswerJSON.source(source, url: nil))) }
    return .object(members)
  }
}
