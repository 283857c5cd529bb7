import ArtworkCore

extension ImageFacts {
  /// The body of `GET /v1/images/{id}.json`: `POST /v1/artwork`'s names for the same facts.
  func json(urls: HostedURLs) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("id", .string(String(fileName.prefix { $0 != "." }))),
      ("image_url", .string(urls.url(fileName: fileName))),
      ("image_shape", .string(shape)),
      ("image_thumbhash", .string(thumbHash)),
      ("width", .int(width)),
      ("height", .int(height)),
      ("format", .string(format)),
      ("bytes", .int(bytes)),
      ("average_color", .string(averageColor)),
      ("created_at", createdAt.map { .string(ImageFacts.timestamp($0)) } ?? .null),
      ("source_url", sourceURL.map(JSONValue.string) ?? .null),
    ]
    if let source { members.append(("source", AnswerJSON.source(source, url: nil))) }
    return .object(members)
  }
}
