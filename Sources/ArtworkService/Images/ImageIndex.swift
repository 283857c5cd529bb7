import ArtworkCore
import Foundation
import Storage

/// The reverse index from a hosted image to the URL results that answer it: the storage names
/// of those result records, kept as a record per image. Result records are named by a keyed
/// hash of namespace, options and URL, so without it a deleted image's results could not be
/// found. Written when a URL result is produced; read and removed when the image is deleted.
///
/// NOTE: an update reads, adds and writes back: two URLs producing the same image at the same
/// moment on two replicas can lose one name. The result it names is caught anyway: a result
/// read from storage is answered only while its image is still stored (`artwork(from:)`).
struct ImageIndex: Sendable {
  let storage: any ArtworkStorage

  /// The most names an image keeps (the newest): many URLs rendering to the same bytes (query
  /// strings that bust caches) must not make each add, and the deletion, cost without bound.
  /// A result whose name was dropped is caught by the same storage check as a lost one.
  static let maxNames = 256

  static func recordName(_ id: ArtworkID) -> String { "image-results/\(id.hex)" }

  /// The result record names pointing to `id`.
  func names(_ id: ArtworkID) async throws(ArtworkError) -> [String] {
    guard let bytes = try await storage.getRecord(Self.recordName(id)) else { return [] }
    return (try? JSONDecoder().decode([String].self, from: Data(bytes))) ?? []
  }

  /// Writes `id`'s index as `names` (what `names(id)` read) with `name` added: nothing when it
  /// is there already. The read is apart so that it can go out beside the object's write.
  func write(_ names: [String], adding name: String, to id: ArtworkID) async throws(ArtworkError) {
    guard !names.contains(name) else { return }
    var names = names
    names.append(name)
    if names.count > Self.maxNames { names.removeFirst(names.count - Self.maxNames) }
    // NOTE: encoding an array of strings cannot fail.
    let bytes = (try? [UInt8](JSONEncoder().encode(names))) ?? []
    try await storage.putRecord(Self.recordName(id), bytes: bytes)
  }

  /// Removes `id`'s index (its image was deleted).
  func remove(_ id: ArtworkID) async throws(ArtworkError) {
    try await storage.deleteRecord(Self.recordName(id))
  }
}
