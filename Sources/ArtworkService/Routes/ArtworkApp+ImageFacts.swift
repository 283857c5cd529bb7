import ArtworkCore
import HTTP
import Storage

// `GET|HEAD /v1/images/{id}.json`: the facts of a hosted image.

extension ArtworkApp {
  /// The handler: the facts stored beside the object, or, for an image stored before facts
  /// were kept, worked out from its bytes (in a worker) and stored for the next time. 404 for
  /// an id that is not stored, facts or not.
  func serveImageFacts(_ name: String) async throws(ArtworkError) -> HTTPResponse {
    let idText = String(name.dropLast(".json".count))
    guard let id = ArtworkID(hex: idText) else {
      throw ArtworkError(.notFound, "No image is stored under \(ClientText.quoted(name)).")
    }
    guard let facts = try await facts(of: id) else {
      throw ArtworkError(.notFound, "No image is stored under \(id.hex).")
    }
    return JSONResponse.make(200, factsJSON(facts))
  }

  /// `id`'s facts while its object is stored; nil when it is not.
  func facts(of id: ArtworkID) async throws(ArtworkError) -> ImageFacts? {
    if let bytes = try await storage.getRecord(ImageFacts.recordName(id)),
      let facts = ImageFacts(json: bytes), let key = ArtworkKey(fileName: facts.fileName)
    {
      // Facts outlive nothing: a deletion cut short may have left them behind.
      return try await storage.head(key) == nil ? nil : facts
    }
    for format in StoredFormat.allCases {
      let key = ArtworkKey(id: id, format: format)
      guard let object = try await storage.get(key) else { continue }
      let computed = try await processor.thumbHash(object.bytes, declaredType: nil)
      let facts = ImageFacts(key, computed: computed)
      await storeFacts(facts, of: key)
      return facts
    }
    return nil
  }

  /// Stores `facts` beside `key`'s object. Best effort: without them a lookup works them out
  /// from the bytes, so a failure is logged, never answered.
  func storeFacts(_ facts: ImageFacts, of key: ArtworkKey) async {
    do throws(ArtworkError) {
      try await storage.putRecord(ImageFacts.recordName(key.id), bytes: facts.json)
    } catch {
      logger.warn(
        "an image's facts could not be stored",
        ["image": .string(key.fileName), "error": .string(error.internalDetail ?? error.detail)])
    }
  }

  /// The body of `GET /v1/images/{id}.json`: `POST /v1/artwork`'s names for the same facts.
  func factsJSON(_ facts: ImageFacts) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("id", .string(String(facts.fileName.prefix { $0 != "." }))),
      ("image_url", .string(config.imageURL(fileName: facts.fileName))),
      ("image_shape", .string(facts.shape)),
      ("image_thumbhash", .string(facts.thumbHash)),
      ("width", .int(facts.width)),
      ("height", .int(facts.height)),
      ("format", .string(facts.format)),
      ("bytes", .int(facts.bytes)),
      ("average_color", .string(facts.averageColor)),
      ("created_at", facts.createdAt.map { .string(ImageFacts.timestamp($0)) } ?? .null),
      ("source_url", facts.sourceURL.map(JSONValue.string) ?? .null),
    ]
    if let source = facts.source {
      members.append(("source", ArtworkApp.sourceJSON(source, url: nil)))
    }
    return .object(members)
  }
}
