import ArtworkCore
import Foundation
import SafeFetch
import WorkerHost

extension URLArtwork {
  /// Stores a new image made from `url` and remembers it as the URL's result (`record` names
  /// the result's record), in two storage round trips after the one that found no result:
  ///
  /// 1. the object, durably, while the image's index (the results that answer it) is read;
  /// 2. once the object is stored, side by side: its facts (a new object only, `owner` its
  ///    first owner), the index with `record` added, and the result itself (`lease.produced`,
  ///    which answers any waiting requests).
  ///
  /// Nothing is remembered before the object is stored. The facts and the index are best
  /// effort: missing facts are worked out from the bytes, and a result the index misses is
  /// caught when it is read (it is answered only while its image is stored). The caller holds
  /// the image's lock.
  func store(
    _ created: CreatedArtwork, as record: String, of url: String,
    lease: ResultCache<ArtworkAnswer>.Lease, validators: Validators, owner: String
  ) async throws(ArtworkError) -> ArtworkAnswer {
    let storing = ContinuousClock.now
    let id = created.key.id
    async let indexed = Self.outcome { () throws(ArtworkError) in try await index.names(id) }
    let isNew = try await renderer.storeObject(created)
    let names = await indexed
    async let described: Void = renderer.storeFacts(
      of: created, sourceURL: url, owner: owner, if: isNew)
    async let reindexed = Self.outcome { () throws(ArtworkError) in
      try await index.write(names.get(), adding: record, to: id)
    }
    let answer = try await lease.produced(ArtworkAnswer(created), validators: validators)
    await described
    if case .failure(let error) = await reindexed {
      renderer.facts.logger.warn(
        "an image's index could not be updated",
        [
          "image": .string(created.key.fileName),
          "error": .string(error.internalDetail ?? error.detail),
        ])
    }
    metrics.recordStage("store", ContinuousClock.now - storing)
    return answer
  }

  /// What `body` returned or threw, as a value (so that it can run beside other work).
  private static func outcome<Value: Sendable>(
    _ body: @Sendable () async throws(ArtworkError) -> Value
  ) async -> Result<Value, ArtworkError> {
    do throws(ArtworkError) {
      return .success(try await body())
    } catch {
      return .failure(error)
    }
  }
}
