import ArtworkCore
import SafeFetch
import WorkerHost

/// The ThumbHash of source URLs, through their remembered results.
struct URLThumbHash: Sendable {
  /// The remembered ThumbHash of each source URL.
  let results: ResultCache<ThumbHashAnswer>
  let fetch: SourceFetch
  let processor: ArtworkProcessor
  let metrics: Metrics

  /// A URL's ThumbHash: the remembered result while fresh; else fetched (conditionally when
  /// there is a result to revalidate), hashed and remembered; with the age of a remembered one.
  func thumbHash(from url: String, revalidate: Bool = false) async throws(ArtworkError)
    -> (ThumbHashAnswer, age: Int?)
  {
    // 1. The remembered result, or the lease to produce it.
    let lease: ResultCache<ThumbHashAnswer>.Lease
    switch try await results.begin(url: url, variant: "", revalidate: revalidate, counting: metrics)
    {
    case .answer(let answer, let age): return (answer, age)
    case .produce(let started): lease = started
    }
    do throws(ArtworkError) {
      // 2. Fetch, conditionally when there is a result to revalidate.
      let fetched = try await fetch.fetch(url, validators: lease.validators ?? Validators())
      // 3. Not modified: the last result holds.
      if fetched.isNotModified { return (try await lease.confirmed(fetched.validators), nil) }
      // 4. Hash, then remember.
      let answer = try await hash(
        fetched.bytes[...], declaredType: fetched.contentType.map(mediaTypeEssence),
        retryingRemembered: revalidate)
      return (try await lease.produced(answer, validators: fetched.validators), nil)
    } catch {
      return (try await lease.failed(error), nil)
    }
  }

  /// The ThumbHash of source bytes, computed in a worker (`retryingRemembered`: the caller's
  /// `Cache-Control: no-cache` tries bytes again that made a worker fail before).
  func hash(_ bytes: ArraySlice<UInt8>, declaredType: String?, retryingRemembered: Bool = false)
    async throws(ArtworkError) -> ThumbHashAnswer
  {
    ThumbHashAnswer(
      try await processor.thumbHash(
        bytes, declaredType: declaredType, retryingRemembered: retryingRemembered))
  }
}
