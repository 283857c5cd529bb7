import Synchronization

/// A connection that has not sent a whole request head yet, since it was accepted: what the
/// server may shed at its connection limit. Made once per connection, at accept time.
final class PendingHead: Sendable {
  /// The connection's descriptor, on `loop`.
  let fd: Int32
  /// The client's address, whose count the connection holds in `ConnectionLimits`.
  let address: String
  /// The loop that serves (or will serve) the connection: the only one that may close it.
  let loop: EventLoop
  /// When it was accepted.
  let accepted: Moment
  /// 0 waiting for its head, 1 shed (its slot given to a newer connection), 2 gone from the
  /// registry (its head arrived, or it closed). Changed only under the registry's lock.
  fileprivate let state = Atomic<UInt8>(0)

  init(fd: Int32, address: String, loop: EventLoop, accepted: Moment) {
    self.fd = fd
    self.address = address
    self.loop = loop
    self.accepted = accepted
  }

  /// Whether the connection was shed: its slot is a newer connection's, and its loop closes it.
  var wasShed: Bool { state.load(ordering: .acquiring) == 1 }
}

/// The connections that have not sent their first whole request head, oldest first, shared by
/// every loop. At the connection limit the oldest of them is shed to admit a new connection
/// (`shedOldest`): the connections that have sent the least give way, so a slow-head attack
/// that fills the limit cannot keep out a client that sends its request at once.
///
/// Touched once when a connection is accepted and once when its first head arrives or it
/// closes: never per request of a kept-alive connection.
final class HeadRegistry: Sendable {
  private struct Queue {
    /// In the order the connections were accepted; entries gone or shed are skipped, and
    /// dropped when they are many.
    var entries: [PendingHead] = []
    /// Where the oldest entry that may still wait is.
    var start = 0
    /// Entries still waiting for their head.
    var waiting = 0
  }

  private let queue = Mutex(Queue())

  /// Adds a connection just accepted: the newest.
  func add(_ entry: PendingHead) {
    queue.withLock { queue in
      queue.entries.append(entry)
      queue.waiting += 1
    }
  }

  /// The connection's head arrived, or it closed: it leaves the registry. Answers whether its
  /// slot is still its own (false when it was shed first: its loop closes it, and the slot
  /// counts a newer connection).
  func leave(_ entry: PendingHead) -> Bool {
    queue.withLock { queue in
      switch entry.state.load(ordering: .relaxed) {
      case 0:
        entry.state.store(2, ordering: .releasing)
        queue.waiting -= 1
        Self.compact(&queue)
        return true
      case 1: return false
      default: return true
      }
    }
  }

  /// Marks the oldest connection still waiting for its head as shed and returns it (nil when
  /// there is none): its slot is the caller's, and its loop must close it.
  func shedOldest() -> PendingHead? {
    queue.withLock { queue in
      while queue.start < queue.entries.count {
        let entry = queue.entries[queue.start]
        queue.start += 1
        if entry.state.load(ordering: .relaxed) == 0 {
          entry.state.store(1, ordering: .releasing)
          queue.waiting -= 1
          Self.compact(&queue)
          return entry
        }
      }
      return nil
    }
  }

  /// When the oldest connection still waiting for its head was accepted (nil when none waits).
  /// Entries before it no longer wait, and never will again: the search starts after them next
  /// time.
  var oldestAccepted: Moment? {
    queue.withLock { queue in
      while queue.start < queue.entries.count {
        let entry = queue.entries[queue.start]
        if entry.state.load(ordering: .relaxed) == 0 { return entry.accepted }
        queue.start += 1
      }
      return nil
    }
  }

  /// Connections waiting for their first head now.
  var waiting: Int { queue.withLock { $0.waiting } }

  /// Drops the entries that no longer wait once they outnumber those that do.
  private static func compact(_ queue: inout Queue) {
    let gone = queue.entries.count - queue.waiting
    guard gone > 64, gone > queue.waiting else { return }
    queue.entries = queue.entries[queue.start...].filter { $0.state.load(ordering: .relaxed) == 0 }
    queue.start = 0
  }
}
