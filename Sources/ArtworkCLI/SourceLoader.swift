import ArtworkCore
import SafeFetch
import WorkerHost

/// Where a batch input's bytes come from: a file read on the I/O pool, or a URL fetched by the
/// service's fetcher (its address policy, limits and time budget).
struct SourceLoader: Sendable {
  /// Refuses an over-limit file before it is read.
  let processor: ArtworkProcessor
  let fetcher: SourceFetcher
  /// Threads for file reads and writes (blocking calls stay off Swift's own threads).
  let io: BlockingPool<Void>

  /// A source's bytes, the media type it was served with, and its URL when it was fetched.
  struct Source: Sendable {
    var bytes: [UInt8]
    var declaredType: String?
    var url: String?
  }

  /// The bytes of `input`.
  func load(_ input: BatchInput) async throws(ArtworkError) -> Source {
    if let failure = input.failure { throw failure }
    if input.isURL {
      let fetched = try await fetcher.fetch(input.text)
      return Source(
        bytes: fetched.bytes, declaredType: fetched.contentType.map(mediaTypeEssence),
        url: input.text)
    }
    let processor = self.processor
    let path = input.text
    let bytes = try await io.run { () throws(ArtworkError) -> [UInt8] in
      try LocalFile.read(path, checkSize: processor.checkSize)
    }
    return Source(bytes: bytes, declaredType: nil, url: nil)
  }
}
