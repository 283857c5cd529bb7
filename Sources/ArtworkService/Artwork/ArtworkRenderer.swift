import ArtworkCore
import Foundation
import Storage
import WorkerHost

/// Source bytes rendered for a request's options (in a worker) and stored, with their facts.
struct ArtworkRenderer: Sendable {
  let processor: ArtworkProcessor
  let storage: any ArtworkStorage
  let facts: ImageFactsStore
  let metrics: Metrics
  let secrets: SecretParameters
  /// Who holds each image: the caller of every creation is recorded before its answer.
  let owners: ImageOwners

  /// One image's store and deletion at a time.
  let locks: ImageLocks

  /// Renders `bytes` for `options` and stores the result (holding the image's lock while it
  /// stores); answers once the object is durably stored (nothing acknowledged is ever lost),
  /// with `caller` recorded as an owner. `retryingRemembered` (the caller's
  /// `Cache-Control: no-cache`) tries bytes again that made a worker fail before.
  func renderAndStore(
    _ bytes: ArraySlice<UInt8>, declaredType: String?, options: ArtworkOptions,
    retryingRemembered: Bool = false, caller: String
  ) async throws(ArtworkError) -> ArtworkAnswer {
    let created = try await render(
      bytes, declaredType: declaredType, options: options, retryingRemembered: retryingRemembered)
    let answer = try await locks.holding(created.key.id) { () throws(ArtworkError) in
      try await store(created, sourceURL: nil, owner: caller)
    }
    // The same bytes stored before: the caller joins their owners.
    try await owners.claim(answer, by: caller)
    return answer
  }

  /// Renders `bytes` for `options` in a worker; nothing is stored.
  func render(
    _ bytes: ArraySlice<UInt8>, declaredType: String?, options: ArtworkOptions,
    retryingRemembered: Bool = false
  ) async throws(ArtworkError) -> CreatedArtwork {
    let created = try await processor.render(
      bytes, declaredType: declaredType, options: options,
      retryingRemembered: retryingRemembered)
    metrics.recordStages(created.timings)
    return created
  }

  /// Stores what `render` made, with its facts (`ImageFacts`, `sourceURL` redacted) beside a new
  /// object, `owner` its first owner: two storage round trips. The caller holds the image's
  /// lock.
  func store(_ created: CreatedArtwork, sourceURL: String?, owner: String?)
    async throws(ArtworkError) -> ArtworkAnswer
  {
    let storing = ContinuousClock.now
    let isNew = try await storeObject(created)
    await storeFacts(of: created, sourceURL: sourceURL, owner: owner, if: isNew)
    metrics.recordStage("store", ContinuousClock.now - storing)
    return ArtworkAnswer(created)
  }

  /// Stores the object `render` made, durably: true when it is new (counted), false when the
  /// same bytes were stored already. The caller holds the image's lock.
  func storeObject(_ created: CreatedArtwork) async throws(ArtworkError) -> Bool {
    guard try await storage.put(created.key, bytes: created.bytes) else { return false }
    metrics.recordArtworkCreated(bytes: created.bytes.count)
    return true
  }

  /// Stores the facts of a new object (`isNew`; an object stored before keeps its facts), its
  /// `sourceURL` redacted, `owner` (the caller that made it) its one owner. Best effort: a
  /// lookup works missing facts out from the bytes, and a claim finds them missing and records
  /// its caller beside an owner only an admin can remove.
  func storeFacts(
    of created: CreatedArtwork, sourceURL: String?, owner: String?, if isNew: Bool
  ) async {
    guard isNew else { return }
    let facts = ImageFacts(
      ArtworkAnswer(created), createdAt: Date().timeIntervalSince1970,
      sourceURL: sourceURL.map(secrets.redacted), owner: owner)
    if await self.facts.store(facts, of: created.key) { owners.remember(created.key.id, facts) }
  }
}
