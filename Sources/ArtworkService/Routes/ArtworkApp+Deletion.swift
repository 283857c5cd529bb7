import ArtworkCore
import Foundation
import HTTP
import Storage

// `DELETE /v1/images/{id}.{ext}`: a hosted image removed on request. docs/ARCHITECTURE.md walks
// it; the README states what every replica sees, and when.

extension ArtworkApp {
  /// The handler (the bearer token was checked with the head): 404 when nothing is stored
  /// under the name (a second DELETE included); else everything that answers the image goes,
  /// in an order that a failure part-way can be retried from (the object last), and 204.
  func deleteImage(_ request: HTTPRequest) async throws(ArtworkError) -> HTTPResponse {
    let name = request.pathParameter("name") ?? ""
    guard let key = ArtworkKey(fileName: name) else {
      throw ArtworkError(.notFound, "No image is stored under \(ClientText.quoted(name)).")
    }
    guard try await storage.head(key) != nil else {
      throw ArtworkError(.notFound, "No image is stored under \(key.fileName).")
    }
    // 1. The URL results that answer it, in storage (through its index) and here.
    for recordName in try await imageIndex.names(key.id) {
      try await storage.deleteRecord(recordName)
    }
    try await imageIndex.remove(key.id)
    try await thumbHashResults.forget(url: config.imageURL(for: key), variant: "stored")
    // 2. Its facts, then the object itself.
    try await storage.deleteRecord(ImageFacts.recordName(key.id))
    guard try await storage.delete(key) else {
      // Another request deleted it meanwhile: that one answers 204.
      throw ArtworkError(.notFound, "No image is stored under \(key.fileName).")
    }
    // 3. What this replica holds in memory, then the notice for the others.
    await forgetDeleted(key)
    do throws(ArtworkError) {
      try await storage.putDeletionNotice(DeletionNotice(key: key, at: Date()).name)
    } catch {
      // The object is gone: the others' memory holds it at most until its hot-cache entry
      // expires, and their stored results are gone already. Logged, not answered.
      logger.error(
        "a deletion notice could not be stored",
        ["image": .string(key.fileName), "error": .string(error.internalDetail ?? error.detail)])
    }
    metrics.recordImageDeleted()
    logger.info("image deleted", ["image": .string(key.fileName)])
    return HTTPResponse(status: 204, headers: HTTPHeaders(), body: .empty)
  }

  /// Forgets what this process holds in memory for a deleted image: its hot-cache entry, the
  /// URL results that answer it, and its hosted URL's remembered ThumbHash. Run for this
  /// replica's deletions and for every notice of another's (`DeletionFollower`).
  func forgetDeleted(_ key: ArtworkKey) async {
    hotImages.remove(key)
    let fileName = key.fileName
    artworkResults.forgetRemembered { $0.fileName == fileName }
    try? await thumbHashResults.forget(url: config.imageURL(for: key), variant: "stored")
  }
}

/// The name of a deletion notice: `{milliseconds since 1970, 15 digits}-{id}.{ext}`, so that
/// names sort by when they were written and a poll lists only what is new.
struct DeletionNotice: Sendable, Equatable {
  var key: ArtworkKey
  var milliseconds: Int64

  init(key: ArtworkKey, milliseconds: Int64) {
    self.key = key
    self.milliseconds = milliseconds
  }

  init(key: ArtworkKey, at date: Date) {
    self.init(key: key, milliseconds: Int64(date.timeIntervalSince1970 * 1000))
  }

  /// Parses a notice's name; nil for anything else.
  init?(name: String) {
    let parts = name.split(separator: "-", maxSplits: 1)
    guard parts.count == 2, parts[0].count == 15, let milliseconds = Int64(parts[0]),
      let key = ArtworkKey(fileName: String(parts[1]))
    else { return nil }
    self.init(key: key, milliseconds: milliseconds)
  }

  var name: String { "\(Self.stamp(milliseconds))-\(key.fileName)" }

  /// The name before every notice written at `milliseconds` or later (`-` sorts before
  /// digits).
  static func cursor(_ milliseconds: Int64) -> String { "\(stamp(milliseconds))-" }

  private static func stamp(_ milliseconds: Int64) -> String {
    let digits = String(max(0, milliseconds))
    return String(repeating: "0", count: max(0, 15 - digits.count)) + digits
  }
}
