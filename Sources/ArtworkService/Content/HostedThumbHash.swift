import ArtworkCore
import SafeFetch

/// The ThumbHash of one of our hosted images, named by its URL in a content document: from the
/// facts stored beside the object (as `POST /v1/artwork` computed it), remembered like a URL's,
/// so a relay's repeat costs nothing.
struct HostedThumbHash: Sendable {
  /// The remembered ThumbHash of each hosted URL (variant `stored`).
  let results: ResultCache<ThumbHashAnswer>
  let facts: ImageFactsStore
  let metrics: Metrics
  /// Held while the hash is looked up and remembered: a deletion of the image comes before
  /// (nothing is remembered) or after (it forgets what was).
  let locks: ImageLocks

  /// The hash of `key`'s object, hosted at `url`.
  func thumbHash(_ key: ArtworkKey, url: String) async throws(ArtworkError) -> String {
    let lease: ResultCache<ThumbHashAnswer>.Lease
    switch try await results.begin(url: url, variant: "stored", counting: metrics) {
    case .answer(let answer, _): return answer.thumbHash
    case .produce(let started): lease = started
    }
    do throws(ArtworkError) {
      return try await locks.holding(key.id) { () throws(ArtworkError) in
        try await remember(key, lease: lease)
      }
    } catch {
      return try await lease.failed(error).thumbHash
    }
  }

  /// The facts kept beside the object hold its hash (worked out once for older images).
  private func remember(_ key: ArtworkKey, lease: ResultCache<ThumbHashAnswer>.Lease)
    async throws(ArtworkError) -> String
  {
    guard let facts = try await facts.facts(of: key.id), facts.fileName == key.fileName else {
      throw ArtworkError(
        .unprocessableContent,
        "image_url names a hosted image that is no longer stored (\(key.fileName)); send its source URL again to host it anew."
      )
    }
    return try await lease.produced(ThumbHashAnswer(facts), validators: Validators()).thumbHash
  }

  /// The hash memory holds for `url`, without waiting on anything; a remembered failure is
  /// thrown.
  func remembered(url: String) throws(ArtworkError) -> String? {
    try results.remembered(url: url, variant: "stored")?.0.thumbHash
  }
}
