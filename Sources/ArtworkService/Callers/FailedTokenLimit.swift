import ArtworkCore
import Foundation
import Synchronization

/// `ARTWORK_API_RATE` for requests whose token is missing or wrong, counted per client network
/// (`ClientNetworks`: a /24, and an IPv6 address by its /64, the block one machine is given):
/// each such 401 takes one request from the network's bucket, and once the bucket is empty
/// every request with a missing or wrong token from the network is answered 429 with
/// `Retry-After` instead of 401. A valid token is never refused for it (`CallerCheck`), and
/// never takes from the bucket: one client's wrong tokens behind a shared address (a proxy, a
/// NAT, a /24) cannot lock out another's valid one.
///
/// The buckets of at most `capacity` addresses are kept: a full bucket is forgotten (it is as
/// good as a new one), and when that is not enough the half nearest to full go.
final class FailedTokenLimit: Sendable {
  /// Failed requests a minute from one address.
  let perMinute: Int
  /// The most networks kept at once.
  let capacity: Int
  /// How addresses group into the networks counted.
  let networks: ClientNetworks
  private let buckets = Mutex<[String: CallerRateLimit]>([:])

  init(perMinute: Int, capacity: Int = 10_000, networks: ClientNetworks = .standard) {
    precondition(perMinute > 0 && capacity > 0)
    self.perMinute = perMinute
    self.capacity = capacity
    self.networks = networks
  }

  /// The whole seconds to wait when `address` has used up its failures now, else nil (nothing
  /// is counted).
  func wait(_ address: String?, at now: ContinuousClock.Instant = .now) -> Int? {
    let key = key(address)
    return buckets.withLock { $0[key] }?.wait(at: now)
  }

  /// Counts one failed request from `address`: nil when it was within the limit (answer 401),
  /// else the whole seconds to wait (answer 429).
  func fail(_ address: String?, at now: ContinuousClock.Instant = .now) -> Int? {
    let key = key(address)
    let bucket = buckets.withLock { buckets in
      if let bucket = buckets[key] { return bucket }
      if buckets.count >= capacity { Self.shed(&buckets, capacity: capacity, at: now) }
      let bucket = CallerRateLimit(perMinute: perMinute)
      buckets[key] = bucket
      return bucket
    }
    return bucket.admit(at: now)
  }

  /// How many addresses are kept now.
  var count: Int { buckets.withLock { $0.count } }

  /// Forgets the full buckets; when fewer than half go that way, the half nearest to full go
  /// too (a sort once in `capacity / 2` new addresses).
  private static func shed(
    _ buckets: inout [String: CallerRateLimit], capacity: Int, at now: ContinuousClock.Instant
  ) {
    buckets = buckets.filter { !$0.value.isFull(at: now) }
    guard buckets.count > capacity / 2 else { return }
    let nearest = buckets.sorted { $0.value.fullAgainTime < $1.value.fullAgainTime }
      .prefix(buckets.count - capacity / 2)
    for (key, _) in nearest { buckets[key] = nil }
  }

  /// The network a bucket is kept for (`ClientNetworks.key`); an unknown peer is one network.
  func key(_ address: String?) -> String {
    guard let address, !address.isEmpty else { return "unknown" }
    return networks.key(address)
  }
}
