import ArtworkCore
import Foundation
import Observability
import Storage

/// Applies the deletions other replicas make: every `interval` it lists the storage's deletion
/// notices and has each new one forgotten here (`DeletedImageMemory.forget`: hot-cache entry,
/// URL results in memory). So a hosted GET never asks storage whether its image was deleted,
/// and a deletion reaches every replica within `interval` plus one listing.
///
/// Each poll lists the notices written since `lag` before the previous poll began, so a writer
/// whose clock is behind by less than `lag`, or a poll that failed, loses nothing; the names
/// already applied are skipped. A backend no other process shares (the filesystem) has no
/// notices, and a poll of it costs nothing.
final class DeletionFollower: Sendable {
  private let task: Task<Void, Never>

  /// Starts following `storage`'s notices; `forget` is run once per new notice.
  init(
    storage: any ArtworkStorage, interval: Duration = .seconds(1), lag: Duration = .seconds(30),
    logger: Logger, forget: @escaping @Sendable (ArtworkKey) async -> Void
  ) {
    task = Task.detached {
      let lagMilliseconds = Int64(lag.components.seconds * 1000)
      var since = Self.now() - lagMilliseconds
      var applied: [String: Int64] = [:]
      var failures = 0
      while !Task.isCancelled {
        let began = Self.now()
        do throws(ArtworkError) {
          let names = try await storage.deletionNotices(after: DeletionNotice.cursor(since))
          for name in names where applied[name] == nil {
            guard let notice = DeletionNotice(name: name) else { continue }
            applied[name] = notice.milliseconds
            await forget(notice.key)
          }
          since = began - lagMilliseconds
          applied = applied.filter { $0.value >= since }
          failures = 0
        } catch {
          failures += 1
          // A store that is down is reported by readiness; one line per minute of it here.
          if failures == 1 || failures.isMultiple(of: 60) {
            logger.warn(
              "deletion notices could not be listed",
              ["error": .string(error.internalDetail ?? error.detail)])
          }
        }
        try? await Task.sleep(for: interval)
      }
    }
  }

  private static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

  func stop() { task.cancel() }

  deinit { task.cancel() }
}
