import Synchronization

/// The open-connection counts, in all and per client address, that admission checks.
final class ConnectionLimits: Sendable {
  private struct Counts {
    var total = 0
    var byAddress: [String: Int] = [:]
  }

  /// The most connections open at once.
  let total: Int
  /// The most connections open at once from one client address.
  let perAddress: Int
  /// Open connections from which on requests other than GET and HEAD are refused (nine
  /// tenths of `total`): near the limit, the connections left go to what is cheap to serve.
  let crowded: Int
  /// How far past `total` connections admitted against idle ones that are still closing may
  /// count (`admit`): a sixty-fourth of it, and at least 8.
  let overdraft: Int
  /// The refusals' answers, naming what to raise when the settings are known.
  private let fullAnswer: ServerAnswer
  private let perAddressAnswer: ServerAnswer
  private let crowdedAnswer: ServerAnswer
  private let counts = Mutex(Counts())
  /// `total` mirrored for `isCrowded`, read without the lock on every request with a body.
  private let openNow = Atomic<Int>(0)

  init(total: Int, perAddress: Int, settings: (total: String, perAddress: String)? = nil) {
    self.total = total
    self.perAddress = perAddress
    crowded = total >= 10 ? total - total / 10 : total
    overdraft = max(8, total / 64)
    let raise = { (name: String?) in name.map { " (\($0))" } ?? "" }
    fullAnswer = ServerAnswer(
      status: 503,
      detail: "The server has \(total) connections open, its limit\(raise(settings?.total)); "
        + "retry shortly.")
    perAddressAnswer = ServerAnswer(
      status: 429,
      detail:
        "Your address has \(perAddress) connections open, the limit per client"
        + "\(raise(settings?.perAddress)); reuse them (keep-alive) or close some. Behind a "
        + "proxy or a shared address, the operator raises that setting.")
    crowdedAnswer = ServerAnswer(
      status: 503,
      detail: "The server is near its limit of \(total) connections\(raise(settings?.total)); "
        + "it keeps them for hosted images and refuses other requests meanwhile. Retry shortly.")
  }

  /// Whether requests other than GET and HEAD are refused now (`crowded`), and the answer.
  var crowdedRefusal: ServerAnswer? {
    openNow.load(ordering: .relaxed) >= crowded ? crowdedAnswer : nil
  }

  /// What `admit` decided.
  enum Admission {
    case admitted
    /// Admitted in the slot of `victim`, a connection still waiting for its first head, which
    /// its loop must now close (its count is the new connection's already).
    case replacing(PendingHead)
    /// Admitted past the limit in all, against an idle kept-alive connection that `loop` now
    /// closes (`EventLoop.closeOldestIdle`), which gives the count back.
    case reclaiming(EventLoop)
    /// Refused, with the answer to give.
    case refused(ServerAnswer)
  }

  /// Counts a new connection from `address`, or answers why it is refused (and counts nothing).
  /// At the limit in all, a connection whose address is under its own limit is admitted when
  /// `makeRoom` gives up another: in the slot of a connection still waiting for its first head
  /// (`.shed`), or counted past the limit against an idle kept-alive connection a loop closes
  /// (`.reclaim`). The connections counted past the limit that way are at most `overdraft`, so
  /// a count of idle connections that went stale cannot stretch it further: `makeRoom` is told
  /// whether it may still reclaim.
  func admit(_ address: String, makingRoom makeRoom: (_ mayReclaim: Bool) -> Room?) -> Admission {
    counts.withLock { counts in
      let fromAddress = counts.byAddress[address, default: 0]
      if counts.total >= total {
        guard fromAddress < perAddress else { return .refused(fullAnswer) }
        switch makeRoom(counts.total < total + overdraft) {
        case .shed(let victim)?:
          let left = counts.byAddress[victim.address, default: 1] - 1
          counts.byAddress[victim.address] = left > 0 ? left : nil
          counts.byAddress[address, default: 0] += 1
          return .replacing(victim)
        case .reclaim(let loop)?:
          counts.total += 1
          openNow.store(counts.total, ordering: .relaxed)
          counts.byAddress[address] = fromAddress + 1
          return .reclaiming(loop)
        case nil:
          return .refused(fullAnswer)
        }
      }
      if fromAddress >= perAddress { return .refused(perAddressAnswer) }
      counts.total += 1
      openNow.store(counts.total, ordering: .relaxed)
      counts.byAddress[address] = fromAddress + 1
      return .admitted
    }
  }

  /// A connection that gives its slot to a new one at the limit (`ServerCore.makeRoom`).
  enum Room {
    /// One still waiting for its first head, marked shed: its loop closes it with a 503.
    case shed(PendingHead)
    /// An idle kept-alive connection on `loop`, which closes the one idle longest.
    case reclaim(EventLoop)
  }

  /// Forgets a connection `admit` counted.
  func release(_ address: String) {
    counts.withLock { counts in
      counts.total -= 1
      openNow.store(counts.total, ordering: .relaxed)
      let left = counts.byAddress[address, default: 1] - 1
      counts.byAddress[address] = left > 0 ? left : nil
    }
  }

  /// Connections open now.
  var open: Int { counts.withLock { $0.total } }
}
