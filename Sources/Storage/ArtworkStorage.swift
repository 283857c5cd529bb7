import ArtworkCore
import Synchronization

/// Where artwork lives. Implementations: `FileSystemStorage` (default) and `S3Storage`.
///
/// Contract, shared by every backend and tested by one suite:
/// - `put` is create-only and atomic: a reader sees the whole object or nothing. Storing a key
///   that exists already is success (ids are content hashes); `put` answers whether it created
///   the object.
/// - `get`/`head` answer nil for a key that is not stored.
/// - Records are small opaque values under a text key (the URL result cache); `putRecord`
///   overwrites atomically.
/// - `delete` removes an object and answers whether it was stored; `deleteRecord` removes a
///   record, and removing what is not there is success.
/// - Deletion notices tell every server sharing the storage what another one deleted: names
///   written by `putDeletionNotice` come back, in name order, from `deletionNotices(after:)` of
///   every server sharing it. A backend that one process owns (the filesystem's lock) has no
///   one to tell: it keeps none and answers none.
/// - Failures are `ArtworkError` of kind `.storageUnavailable` (with `retryAfter`),
///   `.insufficientStorage` (no room: retrying does not help) or `.internal`.
public protocol ArtworkStorage: Sendable {
  @discardableResult
  func put(_ key: ArtworkKey, bytes: [UInt8]) async throws(ArtworkError) -> Bool
  func get(_ key: ArtworkKey) async throws(ArtworkError) -> StoredObject?
  /// The stored size in bytes, or nil when not stored.
  func head(_ key: ArtworkKey) async throws(ArtworkError) -> Int?

  func putRecord(_ name: String, bytes: [UInt8]) async throws(ArtworkError)
  func getRecord(_ name: String) async throws(ArtworkError) -> [UInt8]?

  /// Removes the object under `key`; answers whether it was stored.
  @discardableResult
  func delete(_ key: ArtworkKey) async throws(ArtworkError) -> Bool
  /// Removes the record `name`; a record that is not there is success.
  func deleteRecord(_ name: String) async throws(ArtworkError)

  /// Leaves the notice `name` (letters, digits, `-`, `_` and `.`; ordered by name) for every
  /// server sharing this storage.
  func putDeletionNotice(_ name: String) async throws(ArtworkError)
  /// The names of the notices after `name` (all when nil), in name order, at most a few
  /// thousand per call.
  func deletionNotices(after name: String?) async throws(ArtworkError) -> [String]

  /// Nil when the storage can be written now; otherwise why not.
  func readinessProblem() async -> StorageProblem?

  /// The bytes free where objects are written and the bytes kept free there (new objects are
  /// refused below them), or nil where the backend has no such bound (S3).
  func freeSpace() -> (free: Int, kept: Int)?

  /// Removes what failed writes left behind (the filesystem's temp files); answers how many.
  /// Run periodically, whatever the retention.
  func removeAbandonedWrites() async -> Int

  /// The object's length and a producer of its bytes in order (nil after the last), or nil when
  /// not stored: serving reads through this, so a backend can stream without holding whole
  /// objects. Errors before the first byte are thrown here.
  func stream(_ key: ArtworkKey) async throws(ArtworkError) -> ObjectStream?

  /// Removes objects not requested for `olderThan`, and records not written for as long; at
  /// most `limit` removals per pass. Never throws: a failed pass is retried by the next one.
  func sweep(olderThan: Duration, limit: Int) async -> Int

  /// Lets go of what the backend holds for its lifetime (the filesystem's directory lock), so
  /// that another server can open the same storage at once. Called once, at shutdown, after the
  /// last request; idempotent.
  func release()
}
