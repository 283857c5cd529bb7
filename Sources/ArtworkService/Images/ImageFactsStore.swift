import ArtworkCore
import Observability
import Storage
import WorkerHost

/// The facts kept beside each hosted image (`ImageFacts`): written when it is created, read for
/// `GET /v1/images/{id}.json` and for a hosted URL's ThumbHash.
struct ImageFactsStore: Sendable {
  let storage: any ArtworkStorage
  /// Works out the facts of an image stored before facts were kept (in a worker).
  let processor: ArtworkProcessor
  let logger: Logger

  /// `id`'s facts while its object is stored; nil when it is not. For an image stored before
  /// facts were kept, they are worked out from its bytes and stored for the next time.
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
      await store(facts, of: key)
      return facts
    }
    return nil
  }

  /// Stores `facts` beside `key`'s object: whether they were. Best effort: without them a
  /// lookup works them out from the bytes, so a failure is logged, never answered.
  @discardableResult
  func store(_ facts: ImageFacts, of key: ArtworkKey) async -> Bool {
    do throws(ArtworkError) {
      try await storage.putRecord(ImageFacts.recordName(key.id), bytes: facts.json)
      return true
    } catch {
      logger.warn(
        "an image's facts could not be stored",
        ["image": .string(key.fileName), "error": .string(error.internalDetail ?? error.detail)])
      return false
    }
  }
}
