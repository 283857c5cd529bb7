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
  private let counts = Mutex(Counts())

  init(total: Int, perAddress: Int) {
    self.total = total
    self.perAddress = perAddress
  }

  /// Counts a new connection from `address`, or answers why it is refused (and counts nothing).
  func admit(_ address: String) -> ServerAnswer? {
    counts.withLock { counts in
      if counts.total >= total {
        return ServerAnswer(
          status: 503, detail: "The server has \(total) connections open, its limit; retry shortly."
        )
      }
      let fromAddress = counts.byAddress[address, default: 0]
      if fromAddress >= perAddress {
        return ServerAnswer(
          status: 429,
          detail:
            "Your address has \(perAddress) connections open, the limit per client; reuse them "
            + "(keep-alive) or close some.")
      }
      counts.total += 1
      counts.byAddress[address] = fromAddress + 1
      return nil
    }
  }

  /// Forgets a connection `admit` counted.
  func release(_ address: String) {
    counts.withLock { counts in
      counts.total -= 1
      let left = counts.byAddress[address, default: 1] - 1
      counts.byAddress[address] = left > 0 ? left : nil
    }
  }

  /// Connections open now.
  var open: Int { counts.withLock { $0.total } }
}
