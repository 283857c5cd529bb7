import Synchronization

/// The open-connection counts, in all and per client network (the peer's, `ClientNetworks`:
/// a /24 or a /64 by default), that admission checks.
final class ConnectionLimits: Sendable {
  private struct Counts {
    var total = 0
    var byNetwork: [String: Int] = [:]
  }

  /// The most connections open at once.
  let total: Int
  /// The most connections open at once from one client network.
  let perAddress: Int
  /// Open connections from which on a request other than GET and HEAD, without a credential,
  /// from a network that holds more than an equal share of them, is refused (nine tenths of
  /// `total`): near the limit, the connections left go to what is cheap to serve and to the
  /// callers the service is deployed for, never to the sockets of those who hold the most.
  let crowded: Int
  /// How far past `total` connections admitted against idle ones that are still closing may
  /// count (`admit`): a sixty-fourth of it, and at least 8.
  let overdraft: Int
  /// The refusals' answers, naming what to raise when the settings are known.
  private let fullAnswer: ServerAnswer
  private let perAddressAnswer: ServerAnswer
  private let limitSetting: String
  private let counts = Mutex(Counts())
  /// `total` mirrored for `crowdedRefusal`, read without the lock on every request with a
  /// body.
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
        "Your network has \(perAddress) connections open, the limit per client"
        + "\(raise(settings?.perAddress)); reuse them (keep-alive) or close some. Behind a "
        + "proxy or a shared address, the operator raises that setting.")
    limitSetting = raise(settings?.total)
  }

  /// The refusal of a request other than GET and HEAD without a credential from `network`, when
  /// the server is near its limit (`crowded`) and `network` holds more than an equal share of
  /// the connections open, counting one more network than hold some (nil otherwise). The lock
  /// is taken only near the limit.
  func crowdedRefusal(network: String) -> ServerAnswer? {
    guard openNow.load(ordering: .relaxed) >= crowded else { return nil }
    // An equal share as if one more network came: a network alone near the limit holds more
    // than it, and many networks of one connection each hold no more.
    let (open, mine, equal) = counts.withLock { counts in
      let sharing = counts.byNetwork.count + 1
      return (
        counts.total, counts.byNetwork[network, default: 0], (counts.total + sharing - 1) / sharing
      )
    }
    guard open >= crowded, mine > equal else { return nil }
    return ServerAnswer(
      status: 503,
      detail: "The server is near its limit of \(total) connections\(limitSetting), and your "
        + "network holds \(mine) of them, more than an equal share (\(equal)): it keeps the "
        + "rest for hosted images and for callers with a token, and refuses other requests "
        + "from your network meanwhile. Close the connections you do not use, and retry.")
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

  /// Counts a new connection from `address` (a network), or answers why it is refused (and
  /// counts nothing). At the limit in all, a connection whose network is under its own limit is
  /// admitted when
  /// `makeRoom` gives up another: in the slot of a connection still waiting for its first head
  /// (`.shed`), or counted past the limit against an idle kept-alive connection a loop closes
  /// (`.reclaim`). The connections counted past the limit that way are at most `overdraft`, so
  /// a count of idle connections that went stale cannot stretch it further: `makeRoom` is told
  /// whether it may still reclaim.
  func admit(_ address: String, makingRoom makeRoom: (_ mayReclaim: Bool) -> Room?) -> Admission {
    counts.withLock { counts in
      let fromAddress = counts.byNetwork[address, default: 0]
      if counts.total >= total {
        guard fromAddress < perAddress else { return .refused(fullAnswer) }
        switch makeRoom(counts.total < total + overdraft) {
        case .shed(let victim)?:
          let left = counts.byNetwork[victim.network, default: 1] - 1
          counts.byNetwork[victim.network] = left > 0 ? left : nil
          counts.byNetwork[address, default: 0] += 1
          return .replacing(victim)
        case .reclaim(let loop)?:
          counts.total += 1
          openNow.store(counts.total, ordering: .relaxed)
          counts.byNetwork[address] = fromAddress + 1
          return .reclaiming(loop)
        case nil:
          return .refused(fullAnswer)
        }
      }
      if fromAddress >= perAddress { return .refused(perAddressAnswer) }
      counts.total += 1
      openNow.store(counts.total, ordering: .relaxed)
      counts.byNetwork[address] = fromAddress + 1
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

  /// Forgets a connection `admit` counted (`address`: its network).
  func release(_ address: String) {
    counts.withLock { counts in
      counts.total -= 1
      openNow.store(counts.total, ordering: .relaxed)
      let left = counts.byNetwork[address, default: 1] - 1
      counts.byNetwork[address] = left > 0 ? left : nil
    }
  }

  /// Connections open now.
  var open: Int { counts.withLock { $0.total } }
}
