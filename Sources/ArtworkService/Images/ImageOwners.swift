import ArtworkCore
import Storage
import Synchronization

/// Who holds each hosted image: the callers (token names) that created it or were answered it
/// since, kept in its facts (`ImageFacts.owners`). Ids are public (every push carries one), so
/// a `DELETE` by a caller that holds no claim is refused; one owner's `DELETE` removes that
/// owner's claim, and the image goes with its last (`DeleteImageHandler`). An admin token
/// (`ARTWORK_ADMIN_TOKENS`) deletes any image.
///
/// A caller is recorded before its answer goes out, so nothing it was answered can be deleted
/// under it by another. What is recorded is remembered here, so a repeat answer (a remembered
/// URL result, the same upload again) costs no storage read.
final class ImageOwners: Sendable {
  /// The owner of an image stored before owners were kept: no token's name (those are
  /// `[A-Za-z0-9._-]`), so only an admin's `DELETE` removes that claim.
  static let earlier = "*"
  /// The images remembered at most; past it, memory starts again (a claim then costs one read).
  static let memoryLimit = 65_536

  let storage: any ArtworkStorage
  let locks: ImageLocks
  /// The token names that may delete any image.
  let admins: Set<String>
  /// Whether callers are told apart at all: with no token configured every caller is
  /// `anonymous`, and may delete any image (there is nobody else to protect it from).
  let callersHaveTokens: Bool
  /// What storage holds, as far as this process recorded or read it.
  private let recorded = Mutex<[ArtworkID: Claims]>([:])

  struct Claims: Sendable {
    var owners: Set<String>
    var shapes: Set<String>
  }

  init(
    storage: any ArtworkStorage, locks: ImageLocks, admins: Set<String>,
    callersHaveTokens: Bool
  ) {
    self.storage = storage
    self.locks = locks
    self.admins = admins
    self.callersHaveTokens = callersHaveTokens
  }

  /// Whether `caller` may delete any image.
  func isAdmin(_ caller: String) -> Bool {
    !callersHaveTokens || admins.contains(caller)
  }

  /// Whether storage is known to record `caller` as an owner of `answer`'s image, made as its
  /// shape: then answering it needs no claim. No I/O (the server thread's fast paths ask).
  func isRecorded(_ answer: ArtworkAnswer, by caller: String) -> Bool {
    guard let key = ArtworkKey(fileName: answer.fileName) else { return false }
    return recorded.withLock { recorded in
      guard let claims = recorded[key.id] else { return false }
      return claims.owners.contains(caller) && claims.shapes.contains(answer.shape)
    }
  }

  /// Records `caller` as an owner of `answer`'s image, and its shape among the image's shapes,
  /// before the answer goes out. A storage failure is thrown: an answer whose claim is not
  /// stored could be deleted under its caller.
  func claim(_ answer: ArtworkAnswer, by caller: String) async throws(ArtworkError) {
    guard !isRecorded(answer, by: caller), let key = ArtworkKey(fileName: answer.fileName)
    else { return }
    try await locks.holding(key.id) { () throws(ArtworkError) in
      guard !isRecorded(answer, by: caller) else { return }
      var facts = try await stored(key.id) ?? Self.unknown(answer)
      let owners = facts.owners ?? [Self.earlier]
      let shapes = facts.allShapes
      guard !owners.contains(caller) || !shapes.contains(answer.shape) else {
        remember(key.id, facts)
        return
      }
      facts.owners = owners.contains(caller) ? owners : owners + [caller]
      if !shapes.contains(answer.shape) { facts.shapes = shapes + [answer.shape] }
      try await storage.putRecord(ImageFacts.recordName(key.id), bytes: facts.json)
      remember(key.id, facts)
    }
  }

  /// Whether the image goes now: an admin's DELETE, or its last owner's. Another owner's claim
  /// keeps it (that owner's claim removed here); a caller without a claim is refused (403).
  /// The caller holds the image's lock.
  func release(_ key: ArtworkKey, by caller: String) async throws(ArtworkError)
    -> Bool
  {
    if isAdmin(caller) { return true }
    guard var facts = try await stored(key.id), let held = facts.owners,
      held.contains(caller)
    else {
      throw ArtworkError(
        .notOwner,
        "Image \(key.fileName) was not created by this caller (\(ClientText.quoted(caller))): only "
          + "the callers that created it, or an admin token (ARTWORK_ADMIN_TOKENS), may delete it.")
    }
    let others = held.filter { $0 != caller }
    guard !others.isEmpty else { return true }
    facts.owners = others
    forget(key.id)
    try await storage.putRecord(ImageFacts.recordName(key.id), bytes: facts.json)
    remember(key.id, facts)
    return false
  }

  /// Remembers that storage holds `facts` for `id` (just written, or just read).
  func remember(_ id: ArtworkID, _ facts: ImageFacts) {
    let claims = Claims(
      owners: Set(facts.owners ?? [Self.earlier]), shapes: Set(facts.allShapes))
    recorded.withLock { recorded in
      if recorded.count >= Self.memoryLimit, recorded[id] == nil { recorded.removeAll() }
      recorded[id] = claims
    }
  }

  /// Forgets `id` (deleted here or on another replica, or its claims changed).
  func forget(_ id: ArtworkID) {
    _ = recorded.withLock { $0.removeValue(forKey: id) }
  }

  /// `id`'s stored facts; nil when there are none (or they do not parse).
  func stored(_ id: ArtworkID) async throws(ArtworkError) -> ImageFacts? {
    guard let bytes = try await storage.getRecord(ImageFacts.recordName(id)) else { return nil }
    return ImageFacts(json: bytes)
  }

  /// The facts of a stored image that has none (stored before facts were kept, or their write
  /// failed): what its answer says, with an earlier owner nobody but an admin can remove.
  private static func unknown(_ answer: ArtworkAnswer) -> ImageFacts {
    var facts = ImageFacts(answer, createdAt: 0, sourceURL: nil, owner: nil)
    facts.createdAt = nil
    facts.owners = [earlier]
    return facts
  }
}
