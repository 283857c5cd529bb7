import ArtworkCore

/// Deleting on request, and the notices that tell the other replicas about it.
extension S3Storage {
  /// Removes the object under `key`; answers whether it was stored. S3 answers a DELETE of a
  /// missing key with 204 too, so a HEAD asks first.
  @discardableResult
  public func delete(_ key: ArtworkKey) async throws(ArtworkError) -> Bool {
    let name = requests.objectKey(key)
    let found = try await send(requests.headObject(name), "HEAD \(name)")
    if found.status == 404 { return false }
    guard found.isSuccess else { throw failure(found, "HEAD \(name)") }
    let response = try await send(requests.deleteObject(name), "DELETE \(name)")
    guard response.isSuccess || isMissingObject(response) else {
      throw failure(response, "DELETE \(name)")
    }
    return true
  }

  /// Removes the record `name`, if there is one.
  public func deleteRecord(_ name: String) async throws(ArtworkError) {
    let key = requests.recordKey(name)
    let response = try await send(requests.deleteObject(key), "DELETE \(key)")
    guard response.isSuccess || isMissingObject(response) else {
      throw failure(response, "DELETE \(key)")
    }
  }

  /// Writes an empty object `{prefix}/deletions/{name}`; the sweep ages it out like a record.
  public func putDeletionNotice(_ name: String) async throws(ArtworkError) {
    let key = requests.deletionKey(name)
    let request = requests.putObject(
      key, body: [], contentType: "application/octet-stream", cacheControl: nil,
      createOnly: false)
    let response = try await send(request, "PUT \(key)")
    guard response.isSuccess else { throw failure(response, "PUT \(key)") }
  }

  /// ListObjectsV2 under `{prefix}/deletions/` from the name after `name`, page after page to
  /// the end: a poll that finds nothing new costs one small request.
  public func deletionNotices(after name: String?) async throws(ArtworkError) -> [String] {
    try await deletionNotices(after: name, pageSize: 1000)
  }

  /// Every notice after `name`, listed `pageSize` at a time until the store says there are no
  /// more (a store that answers the same continuation twice ends the listing: no loop).
  func deletionNotices(after name: String?, pageSize: Int) async throws(ArtworkError)
    -> [String]
  {
    let prefix = requests.deletionsPrefix
    var names: [String] = []
    var token: String?
    repeat {
      let request = requests.listObjects(
        prefix: prefix, continuationToken: token, maxKeys: pageSize,
        startAfter: name.map(requests.deletionKey))
      let response = try await send(request, "LIST \(prefix)")
      guard response.isSuccess else { throw failure(response, "LIST \(prefix)") }
      let page = S3Listing(xml: response.body)
      names += page.entries.compactMap { entry in
        entry.key.hasPrefix(prefix) ? String(entry.key.dropFirst(prefix.count)) : nil
      }
      guard let next = page.nextContinuationToken, next != token else { break }
      token = next
    } while true
    return names
  }
}
