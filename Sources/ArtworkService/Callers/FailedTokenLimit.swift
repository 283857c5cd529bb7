import ArtworkCore
import Foundation
import Synchronization

/// `ARTWORK_API_RATE` for requests whose token is missing or wrong, counted per client address
/// (an IPv6 address by its /64, the block one machine is given): each such 401 takes one request
/// from the address's bucket, and once the bucket is empty every write request from the address
/// is answered 429 with `Retry-After` before its token is looked at, a valid one included, so
/// that the answer never tells a right guess from a wrong one. Requests with a valid token never
/// take from the address's bucket.
///
/// The buckets of at most `capacity` addresses are kept: a full bucket is forgotten (it is as
/// good as a new one), and when that is not enough the half nearest to full go.
final class FailedTokenLimit: Sendable {
  /// Failed requests a minute from one address.
  let perMinute: Int
  /// The most addresses kept at once.
  let capacity: Int
  private let buckets = Mutex<[String: CallerRateLimit]>([:])

  init(perMinute: Int, capacity: Int = 10_000) {
    precondition(perMinute > 0 && capacity > 0)
    self.perMinute = perMinute
    self.capacity = capacity
  }

  /// The whole seconds to wait when `address` has used up its failures now, else nil (nothing
  /// is counted).
  func wait(_ address: String?, at now: ContinuousClock.Instant = .now) -> Int? {
    let key = Self.key(address)
    return buckets.withLock { $0[key] }?.wait(at: now)
  }

  /// Counts one failed request from `address`: nil when it was within the limit (answer 401),
  /// else the whole seconds to wait (answer 429).
  func fail(_ address: String?, at now: ContinuousClock.Instant = .now) -> Int? {
    let key = Self.key(address)
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

  /// The address a bucket is kept for: an IPv4 address as it is, an IPv6 address by its first
  /// 64 bits (`2001:db8:0:1::/64`), anything else (an unknown peer) as one address.
  static func key(_ address: String?) -> String {
    guard let address, !address.isEmpty else { return "unknown" }
    guard address.contains(":") else { return address }
    var raw = in6_addr()
    guard inet_pton(AF_INET6, address, &raw) == 1 else { return address }
    let bytes = withUnsafeBytes(of: raw) { Array($0.prefix(8)) }
    let groups = stride(from: 0, to: 8, by: 2).map {
      String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
    }
    return groups.joined(separator: ":") + "::/64"
  }
}
