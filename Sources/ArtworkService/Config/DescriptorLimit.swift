#if canImport(Glibc)
  import Glibc
#endif

/// The descriptors the process may hold (`RLIMIT_NOFILE`), and what they leave for connections.
///
/// A push opens a connection from every phone at once, so the connection limit is sized from
/// the descriptors, as nginx's `worker_connections` is sized by its operator: a quarter of them
/// is kept for the sealed body files (`SharedBody`), and a fixed reserve for the listeners, the
/// workers' channels, storage and fetches.
public enum DescriptorLimit {
  /// Descriptors kept outside connections and body files.
  static let reserve = 256
  /// The largest default: about 2.5 KB of the service's memory each when idle, besides the
  /// kernel's socket buffers (BENCHMARKS.md, "Fan-out").
  static let mostConnections = 32_768

  /// Raises the soft limit to the hard one, as a server that holds a socket per client should
  /// (systemd's default soft limit is 1,024 under a hard one of 524,288), and answers the soft
  /// limit in force after.
  @discardableResult
  public static func raiseToHard() -> Int {
    if var limit = read(), limit.rlim_cur < limit.rlim_max {
      limit.rlim_cur = limit.rlim_max
      _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    return current
  }

  /// The soft limit now (1,024 when it cannot be read).
  public static var current: Int {
    guard let limit = read() else { return 1024 }
    return Int(min(limit.rlim_cur, rlim_t(Int32.max)))
  }

  private static func read() -> rlimit? {
    var limit = rlimit()
    return getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? limit : nil
  }

  /// The default connection limit for `descriptors`: three quarters of them less the reserve,
  /// from 64 to `mostConnections` (512 at the classic 1,024; 14,744 at 20,000).
  static func connections(descriptors: Int) -> Int {
    let usable = descriptors / 4 * 3 - reserve
    return min(mostConnections, max(64, usable))
  }
}
