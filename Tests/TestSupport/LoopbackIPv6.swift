#if canImport(Glibc)
  import Glibc
#endif

/// Whether this machine has IPv6 on loopback: a socket can be bound to `[::1]`. The tests that
/// fetch over IPv6 are enabled only then (`.enabled(if: LoopbackIPv6.isAvailable, ...)`), so
/// a machine without it shows them as skipped instead of passing them unseen; where it is
/// available, a test requires the origin's `::1` listener and fails without it.
public enum LoopbackIPv6 {
  public static let isAvailable: Bool = {
    let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_addr = in6addr_loopback
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
      }
    }
  }()
}
