import ArtworkCore

/// Retention: deleting objects and records nobody has asked for in a while.
extension S3Storage {
  /// Deletes up to `limit` objects and records whose Last-Modified is older than `olderThan`
  /// (an object's Last-Modified is its last request, to within `touchInterval`: see the type's
  /// doc), and answers how many it deleted. One pass lists at most `sweepPaging.pagesPerPass` pages per
  /// prefix and resumes on the next call where it stopped, wrapping around at the end. Failures
  /// end the pass quietly (the next pass retries); it never throws.
  public func sweep(olderThan age: Duration, limit: Int) async -> Int {
    let cutoff = now() - age.components.seconds
    var deleted = 0
    for prefix in [requests.objectsPrefix, requests.recordsPrefix, requests.deletionsPrefix]
    where deleted < limit {
      deleted += await sweep(prefix: prefix, cutoff: cutoff, limit: limit - deleted)
    }
    return deleted
  }

  private func sweep(prefix: String, cutoff: Int64, limit: Int) async -> Int {
    var deleted = 0
    var token = sweepCursors.withLock { $0[prefix] }
    for _ in 0..<sweepPaging.pagesPerPass {
      let request = requests.listObjects(
        prefix: prefix, continuationToken: token, maxKeys: sweepPaging.pageSize)
      guard case .success(let response) = await client.perform(request), response.isSuccess
      else { return deleted }
      let page = S3Listing(xml: response.body)
      for entry in page.entries {
        guard deleted < limit else {
          // Stop mid-page: the next pass lists this page again, which is harmless.
          return deleted
        }
        guard let modified = entry.lastModified, modified < cutoff else { continue }
        if case .success(let answer) = await client.perform(requests.deleteObject(entry.key)),
          answer.isSuccess
        {
          deleted += 1
        }
      }
      token = page.nextContinuationToken
      sweepCursors.withLock { $0[prefix] = token }
      if token == nil { break }
    }
    return deleted
  }
}
