import ArtworkCore
import Foundation
import HTTP
import Observability
import Storage

// `DELETE /v1/images/{id}.{ext}`: a hosted image removed on request. docs/ARCHITECTURE.md walks
// it; docs/api.md states what every replica sees, and when.

/// The bearer token was checked with the head: 404 when nothing is stored under the name (a
/// second DELETE included); 403 when the caller holds no claim on the image and is no admin
/// (`ImageOwners`); an owner's DELETE while others hold it removes that owner's claim; else
/// everything that answers the image goes, in an order that a failure part-way can be retried
/// from (the object last). 204 either way.
struct DeleteImageHandler: RouteHandler {
  let storage: any ArtworkStorage
  /// The URL results that answer each hosted image.
  let index: ImageIndex
  /// What this process remembers of an image.
  let memory: DeletedImageMemory
  let metrics: Metrics
  let logger: Logger
  /// Who may delete the image; its lock (`ImageOwners.locks`) is held for the whole deletion,
  /// so a create of the same image is ordered before or after it.
  let owners: ImageOwners

  func handle(_ request: HTTPRequest, _ context: Void) async throws(ArtworkError) -> HTTPResponse {
    let name = request.pathParameter("name") ?? ""
    guard let key = ArtworkKey(fileName: name) else {
      throw ArtworkError(.notFound, "No image is stored under \(ClientText.quoted(name)).")
    }
    let caller = request.caller
    let deleted = try await owners.locks.holding(key.id) { () throws(ArtworkError) in
      guard try await storage.head(key) != nil else {
        throw ArtworkError(.notFound, "No image is stored under \(key.fileName).")
      }
      guard try await owners.release(key, by: caller) else { return false }
      try await delete(key)
      return true
    }
    if deleted {
      metrics.recordImageDeleted()
      logger.info("image deleted", ["image": .string(key.fileName), "caller": .string(caller)])
    } else {
      logger.info(
        "an owner's claim on an image released",
        ["image": .string(key.fileName), "caller": .string(caller)])
    }
    return HTTPResponse(status: 204, headers: HTTPHeaders(), body: .empty)
  }

  /// Everything that answers `key`'s image, removed; the caller holds the image's lock.
  private func delete(_ key: ArtworkKey) async throws(ArtworkError) {
    // 1. The URL results that answer it, in storage (through its index) and here.
    for recordName in try await index.names(key.id) {
      try await storage.deleteRecord(recordName)
    }
    try await index.remove(key.id)
    try await memory.forgetHostedThumbHash(key)
    // 2. Its facts, then the object itself.
    try await storage.deleteRecord(ImageFacts.recordName(key.id))
    guard try await storage.delete(key) else {
      // Another request deleted it meanwhile: that one answers 204.
      throw ArtworkError(.notFound, "No image is stored under \(key.fileName).")
    }
    // 3. What this replica holds in memory, then the notice for the others.
    await memory.forget(key)
    do throws(ArtworkError) {
      try await storage.putDeletionNotice(DeletionNotice(key: key, at: Date()).name)
    } catch {
      // The object is gone: the others' memory holds it at most until its hot-cache entry
      // expires, and their stored results are gone already. Logged, not answered.
      logger.error(
        "a deletion notice could not be stored",
        ["image": .string(key.fileName), "error": .string(error.internalDetail ?? error.detail)])
    }
  }
}
