import ArtworkCore
import SafeFetch
import Storage
import WorkerHost

/// The artwork of source URLs, through their remembered results: what `POST /v1/artwork` with
/// a URL, `GET /v1/artwork/results/{id}` and `POST /v1/content` share.
struct URLArtwork: Sendable {
  /// The remembered result of each source URL and options.
  let results: ResultCache<ArtworkAnswer>
  let fetch: SourceFetch
  let renderer: ArtworkRenderer
  let storage: any ArtworkStorage
  /// The URL results that answer each hosted image, for its deletion.
  let index: ImageIndex
  let metrics: Metrics

  /// A URL's artwork for `caller`, who is recorded as an owner of its image before it is
  /// answered (`ImageOwners`): the remembered result while it is fresh; else the origin is
  /// asked (conditionally when the last result's image is still stored), and a new image is
  /// rendered, stored and remembered. Concurrent identical requests share one run. Answers the
  /// age of a remembered result (nil when it was made or confirmed now); `revalidate` asks the
  /// origin again even when the result is fresh.
  func artwork(
    from url: String, options: ArtworkOptions, revalidate: Bool = false, caller: String
  ) async throws(ArtworkError) -> (ArtworkAnswer, age: Int?) {
    let (answer, age) = try await made(
      from: url, options: options, revalidate: revalidate, caller: caller)
    try await renderer.owners.claim(answer, by: caller)
    return (answer, age)
  }

  /// `artwork` before its caller's claim; a new image's facts name `caller` its first owner.
  private func made(from url: String, options: ArtworkOptions, revalidate: Bool, caller: String)
    async throws(ArtworkError) -> (ArtworkAnswer, age: Int?)
  {
    // 1. The remembered result, or the lease to produce it. A result in memory is answered as
    // it is (a deletion anywhere evicts it within the notice bound); one read from storage only
    // while its image is still stored (a deleted image's results are removed through its
    // index, and this catches any the index missed).
    let variant = options.cacheKey
    if !revalidate, let (answer, age) = try results.remembered(url: url, variant: variant) {
      metrics.recordCacheLookup(hit: true)
      return (answer, age)
    }
    var lease: ResultCache<ArtworkAnswer>.Lease?
    for attempt in 0..<2 where lease == nil {
      switch try await results.begin(
        url: url, variant: variant, revalidate: revalidate, counting: metrics)
      {
      case .answer(let answer, let age):
        guard age != nil, attempt == 0, !(await isStored(answer)) else { return (answer, age) }
        try await results.forget(url: url, variant: variant)
      case .produce(let started): lease = started
      }
    }
    guard let lease else {
      throw ArtworkError(.internal, "The request stopped.", internalDetail: "no lease")
    }
    do throws(ArtworkError) {
      // 2. Revalidate the last result only while its image is still stored.
      if let previous = lease.previous, !(await isStored(previous)) { lease.discardPrevious() }
      // 3. Fetch, conditionally when there is a result to revalidate.
      let fetched = try await fetch.fetch(url, validators: lease.validators ?? Validators())
      // 4. Not modified: the last result holds.
      if fetched.isNotModified { return (try await lease.confirmed(fetched.validators), nil) }
      // 5. Render the new image; then, holding the image's lock (a deletion of the same image
      // waits, or is waited for), store it, index the result under it (so that deleting the
      // image forgets it) and remember it (`URLArtwork+Storing.swift`).
      let created = try await renderer.render(
        fetched.bytes[...], declaredType: fetched.contentType.map(mediaTypeEssence),
        options: options, retryingRemembered: revalidate)
      let answer = try await renderer.locks.holding(created.key.id) {
        () throws(ArtworkError) in
        try await store(
          created, as: results.recordName(url: url, variant: variant), of: url, lease: lease,
          validators: fetched.validators, owner: caller)
      }
      return (answer, nil)
    } catch {
      return (try await lease.failed(error), nil)
    }
  }

  /// The result memory holds for `url` under `options`, without waiting on anything: nil when
  /// there is none, or when `caller` is not yet recorded as an owner of its image (`artwork`
  /// records it); a remembered failure is thrown. Not counted: the caller counts a hit.
  func remembered(url: String, options: ArtworkOptions, caller: String) throws(ArtworkError)
    -> (ArtworkAnswer, age: Int)?
  {
    guard let (answer, age) = try results.remembered(url: url, variant: options.cacheKey),
      renderer.owners.isRecorded(answer, by: caller)
    else { return nil }
    return (answer, age)
  }

  /// The source's last artwork, when it has one whose image is still stored (what a caller
  /// whose wait ran out can still push), with `caller` recorded as an owner.
  func lastStored(url: String, options: ArtworkOptions, caller: String) async -> ArtworkAnswer? {
    guard let last = await results.lastKnown(url: url, variant: options.cacheKey),
      await isStored(last),
      (try? await renderer.owners.claim(last, by: caller)) != nil
    else { return nil }
    return last
  }

  /// Whether the image of a remembered answer is still in storage (retention may have removed
  /// it); a storage failure counts as not stored, so the image is made again.
  func isStored(_ answer: ArtworkAnswer) async -> Bool {
    guard let key = ArtworkKey(fileName: answer.fileName) else { return false }
    return (try? await storage.head(key)) != nil
  }
}
