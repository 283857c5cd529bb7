import Synchronization

/// A connection that has not sent a whole request head yet, since it was accepted: what the
/// server may shed at its connection limit. Made once per connection, at accept time.
final class PendingHead: Sendable {
  /// The connection's descriptor, on `loop`.
  let fd: Int32
  /// The peer's address as text.
  let address: String
  /// The peer's network (`ClientNetworks`), whose count the connection holds in
  /// `ConnectionLimits` and here.
  let network: String
  /// The loop that serves (or will serve) the connection: the only one that may close it.
  let loop: EventLoop
  /// When it was accepted.
  let accepted: Moment
  /// 0 waiting for its head, 1 shed (its slot given to a newer connection), 2 gone from the
  /// registry (its head arrived, or it closed). Changed only under the registry's lock.
  fileprivate let state = Atomic<UInt8>(0)

  init(fd: Int32, address: String, network: String, loop: EventLoop, accepted: Moment) {
    self.fd = fd
    self.address = address
    self.network = network
    self.loop = loop
    self.accepted = accepted
  }
}

/// The connections that have not sent their first whole request head, oldest first, shared by
/// every loop, with how many each client network holds. At the connection limit one of them is
/// shed to admit a new connection: the oldest of the network that holds the most when it holds
/// many (`shedHeaviest`), else the oldest of all (`shedOldest`). The connections that have sent
/// the least give way, those of the network that holds the most of them first, so a slow-head
/// or silent-socket attack that fills the limit cannot keep out a client that sends its request
/// at once, and costs the attacker's own connections before anyone else's.
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
    /// Entries still waiting, by network.
    var byNetwork = KeyCounts()

    /// `entry`, which waited, waits no more.
    mutating func stopWaiting(_ entry: PendingHead) {
      waiting -= 1
      byNetwork.decrement(entry.network)
    }
  }

  private let queue = Mutex(Queue())

  /// Adds a connection just accepted: the newest.
  func add(_ entry: PendingHead) {
    queue.withLock { queue in
      queue.entries.append(entry)
      queue.waiting += 1
      queue.byNetwork.increment(entry.network)
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
        queue.stopWaiting(entry)
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
          queue.stopWaiting(entry)
          Self.compact(&queue)
          return entry
        }
      }
      return nil
    }
  }

  /// Marks the oldest waiting connection of the network that holds the most waiting ones as
  /// shed and returns it, when that network holds at least `many` (nil otherwise): its slot is
  /// the caller's, and its loop must close it.
  func shedHeaviest(holdingAtLeast many: Int) -> PendingHead? {
    queue.withLock { queue in
      guard let top = queue.byNetwork.top, top.count >= many else { return nil }
      var index = queue.start
      while index < queue.entries.count {
        let entry = queue.entries[index]
        index += 1
        guard entry.network == top.key, entry.state.load(ordering: .relaxed) == 0 else {
          continue
        }
        entry.state.store(1, ordering: .releasing)
        queue.stopWaiting(entry)
        Self.compact(&queue)
        return entry
      }
      return nil
    }
  }

  /// The connections waiting for their first head from `network` now.
  func waiting(from network: String) -> Int { queue.withLock { $0.byNetwork[network] } }

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
