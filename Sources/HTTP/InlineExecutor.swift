/// A task executor that runs a task's next job on the thread that wakes it: the pool thread
/// that resumes a continuation carries the handler on to its next step, instead of handing it
/// back to Swift's global threads first.
///
/// Handlers run under it (`Connection.messageArrived`), so a request moves loop thread → Swift
/// thread (the first step) → the pool thread of each blocking step in turn → loop thread: one
/// hand-off per step, none between (docs/ARCHITECTURE.md counts them).
///
/// NOTE: code resumed under it runs synchronously inside `continuation.resume`: a resume must
/// never happen under a lock the resumed code could take. Every pool, cache and loop in this
/// package resumes outside its locks.
final class InlineExecutor: TaskExecutor {
  static let shared = InlineExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    job.runSynchronously(on: asUnownedTaskExecutor())
  }
}
