import ArtworkCore

/// What this process holds in memory for a hosted image, forgotten when the image is deleted:
/// its hot-cache entry, the URL results that answer it, its hosted URL's remembered
/// ThumbHash, and its recorded owners. Run for this replica's deletions and for every notice of another's
/// (`DeletionFollower`).
struct DeletedImageMemory: Sendable {
  let hotImages: HotImageCache
  let artworkResults: ResultCache<ArtworkAnswer>
  let thumbHashResults: ResultCache<ThumbHashAnswer>
  let urls: HostedURLs
  let owners: ImageOwners

  func forget(_ key: ArtworkKey) async {
    owners.forget(key.id)
    hotImages.remove(key)
    let fileName = key.fileName
    artworkResults.forgetRemembered { $0.fileName == fileName }
    try? await forgetHostedThumbHash(key)
  }

  /// The remembered ThumbHash of `key`'s hosted URL, in memory and in storage.
  func forgetHostedThumbHash(_ key: ArtworkKey) async throws(ArtworkError) {
    try await thumbHashResults.forget(url: urls.url(for: key), variant: "stored")
  }
}
