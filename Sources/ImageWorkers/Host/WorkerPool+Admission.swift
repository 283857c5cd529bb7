import Synchronization

extension WorkerPool {
  /// An upload's place among the workers' jobs, from its head until its job is done: at most as
  /// many as the workers and their queue can take are out at once, so no more upload bodies are
  /// held than can be worked on. Given back by `release` (once the job is done: the body has
  /// served), or when the value goes (the request ended, however).
  public final class Admission: Sendable {
    private let pool: Admissions
    private let share: String
    private let released = Atomic<Bool>(false)

    init(_ pool: Admissions, share: String) {
      self.pool = pool
      self.share = share
    }

    /// Gives the place back now (later calls do nothing).
    public func release() {
      if !released.exchange(true, ordering: .relaxed) { pool.release(share) }
    }

    deinit { release() }
  }

  /// The admissions out, and how many may be. One caller (`WorkShare`) alone may take every
  /// place; once they are all out, a caller holding fewer than an equal share of them may still
  /// take one of a reserve of a quarter more, so another caller's upload is admitted however many
  /// a flood holds (the body memory default has room for the reserve: `ServiceConfig`).
  final class Admissions: Sendable {
    let capacity: Int
    /// Places past `capacity` for callers below their share.
    let reserve: Int
    private let out = Mutex((total: 0, byShare: [String: Int]()))

    init(capacity: Int) {
      self.capacity = capacity
      reserve = max(1, capacity / 4)
    }

    func take(_ share: String) -> Bool {
      out.withLock { out in
        let mine = out.byShare[share, default: 0]
        if out.total >= capacity {
          let sharing = out.byShare.count + (mine == 0 ? 1 : 0)
          guard out.total < capacity + reserve, mine < capacity / sharing else { return false }
        }
        out.total += 1
        out.byShare[share] = mine + 1
        return true
      }
    }

    func release(_ share: String) {
      out.withLock { out in
        out.total -= 1
        let left = out.byShare[share, default: 1] - 1
        out.byShare[share] = left > 0 ? left : nil
      }
    }

    var count: Int { out.withLock { $0.total } }
  }
}
