import Synchronization

extension WorkerPool {
  /// An upload's place among the workers' jobs, from its head until its job is done: at most as
  /// many as the workers and their queue can take are out at once, so no more upload bodies are
  /// held than can be worked on. Given back by `release` (once the job is done: the body has
  /// served), or when the value goes (the request ended, however).
  public final class Admission: Sendable {
    private let pool: Admissions
    private let released = Atomic<Bool>(false)

    init(_ pool: Admissions) { self.pool = pool }

    /// Gives the place back now (later calls do nothing).
    public func release() {
      if !released.exchange(true, ordering: .relaxed) { pool.release() }
    }

    deinit { release() }
  }

  /// The admissions out, and how many may be.
  final class Admissions: Sendable {
    let capacity: Int
    private let out = Mutex(0)

    init(capacity: Int) { self.capacity = capacity }

    func take() -> Bool {
      out.withLock { out in
        guard out < capacity else { return false }
        out += 1
        return true
      }
    }

    func release() { out.withLock { $0 -= 1 } }

    var count: Int { out.withLock { $0 } }
  }
}
