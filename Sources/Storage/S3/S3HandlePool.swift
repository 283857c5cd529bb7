import ArtworkCore
import CurlClient

/// A small, fixed set of threads for the S3 backend's blocking curl transfers, each owning one
/// `CurlEasy` handle that it reuses (keeping its connection to the store alive between requests).
/// Handles are never shared between threads; a thread drops its handle after a transport
/// failure and makes a fresh one for the next job, so no broken state outlives a failure.
///
/// Why not the fetcher's `FetchPool`: a bulkhead (a storm of slow origins must not queue the
/// store's requests behind it, nor the reverse), and the store is one trusted host worth a
/// kept-alive connection per thread, while source fetches use a fresh handle per origin.
///
/// At most `threads` transfers run at once and at most `queueLimit` wait; past that `run`
/// answers nil at once (the caller reports the store as unavailable). Threads start on demand
/// and end when the pool is released (`BlockingPool`).
final class S3HandlePool: Sendable {
  private let threads: BlockingPool<CurlEasy>

  init(threads: Int, queueLimit: Int = 256) {
    self.threads = BlockingPool(
      name: "artwork-s3", threads: threads, queueLimit: queueLimit, stackSize: 1 << 20)
  }

  /// Runs `work` on a pool thread with that thread's handle and returns its result; nil when
  /// too many transfers are waiting already. The continuation is resumed exactly once: by the
  /// pool thread after `work`, or here when the job is refused.
  func run<T: Sendable>(_ work: @escaping @Sendable (_ handle: CurlEasy) -> (T, keepHandle: Bool))
    async -> T?
  {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
      let accepted = threads.submit { handle in
        let easy = handle ?? CurlEasy()
        let (result, keep) = work(easy)
        handle = keep ? easy : nil
        continuation.resume(returning: result)
      }
      if !accepted { continuation.resume(returning: nil) }
    }
  }
}
