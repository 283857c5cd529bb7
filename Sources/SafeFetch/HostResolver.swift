import ArtworkCore
import Foundation
import Glibc
import Synchronization

/// Resolves a host name to every address it has, with the system resolver (`getaddrinfo`), and
/// reads each answer from the socket address bytes. Blocking: call on a `FetchPool` thread; the
/// lookup itself runs on the fetch pool's lookup threads.
///
/// The fetcher judges *every* address of a host name with it before dialling any (and then pins
/// curl to those addresses); the reachability check judges them as a phone would.
enum HostResolver {
  /// `resolve(host)` within `timeout`: the lookup runs on a thread of `lookups` (getaddrinfo has
  /// no deadline), and a lookup still going at the deadline answers `.timedOut` while its thread
  /// finishes on its own. A stuck resolver can hold every lookup thread, never more.
  /// The name is looked up as `HostName.lookupForm` spells it; `localhost` and `*.localhost`
  /// answer loopback at once, and `invalid` and `*.invalid` fail at once, without a lookup.
  static func resolve(_ host: String, within timeout: Duration, on lookups: BlockingPool<Void>)
    -> Resolution
  {
    if let loopback = HostName.reservedLoopback(host) { return .addresses(loopback) }
    if HostName.isReservedInvalid(host) {
      return .failed("names under .invalid never resolve, RFC 6761")
    }
    let host = HostName.lookupForm(host)
    let answer = PendingResolution()
    guard lookups.submit({ _ in answer.deliver(resolve(host)) }) else {
      return .failed("too many name lookups are waiting for an answer")
    }
    guard answer.ready.wait(timeout: .now() + max(0, timeout.seconds)) == .success else {
      return .timedOut
    }
    return answer.value.withLock { $0 } ?? .failed("the lookup gave no answer")
  }

  /// One lookup's answer, handed from its thread to the waiting caller.
  private final class PendingResolution: Sendable {
    let value = Mutex<Resolution?>(nil)
    let ready = DispatchSemaphore(value: 0)

    func deliver(_ resolution: Resolution) {
      value.withLock { $0 = resolution }
      ready.signal()
    }
  }

  /// The distinct addresses of `host` in resolver order, or the resolver's message.
  /// NOTE: getaddrinfo has no timeout of its own; the system resolver's (resolv.conf) applies.
  static func resolve(_ host: String) -> Resolution {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let code = getaddrinfo(host, nil, &hints, &list)
    guard code == 0 else { return .failed(String(cString: gai_strerror(code))) }
    defer { freeaddrinfo(list) }
    var addresses: [IPAddress] = []
    var entry = list
    while let current = entry {
      if let address = Self.address(of: current.pointee), !addresses.contains(address) {
        addresses.append(address)
      }
      entry = current.pointee.ai_next
    }
    return .addresses(addresses)
  }

  private static func address(of info: addrinfo) -> IPAddress? {
    guard let raw = info.ai_addr else { return nil }
    switch info.ai_family {
    case AF_INET where info.ai_addrlen >= MemoryLayout<sockaddr_in>.size:
      return raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        withUnsafeBytes(of: $0.pointee.sin_addr) { IPAddress(bytes: $0) }
      }
    case AF_INET6 where info.ai_addrlen >= MemoryLayout<sockaddr_in6>.size:
      return raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
        withUnsafeBytes(of: $0.pointee.sin6_addr) { IPAddress(bytes: $0) }
      }
    default:
      return nil
    }
  }

  /// The answer: addresses, why there are none in the resolver's words, or no answer in time.
  enum Resolution: Sendable, Equatable {
    case addresses([IPAddress])
    case failed(String)
    case timedOut
  }
}
