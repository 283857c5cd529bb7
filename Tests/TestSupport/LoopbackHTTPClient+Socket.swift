import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Sockets, deadlines and threads.
extension LoopbackHTTPClient {
  /// A connected TCP socket to `host`:`port`, bound first to `source` (another loopback
  /// address, standing in for another client) when given.
  static func connect(host: String, port: Int, timeout: Duration, source: String? = nil) throws
    -> Int32
  {
    let isV6 = host.contains(":")
    // NOTE: close-on-exec, or a child process some other test spawns keeps this connection open.
    let socket = Glibc.socket(
      isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { throw LoopbackHTTPError.connectFailed(errno: errno) }
    if let source, !isV6 {
      var local = sockaddr_in()
      local.sin_family = sa_family_t(AF_INET)
      _ = inet_pton(AF_INET, source, &local.sin_addr)
      let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0 else {
        let code = errno
        _ = Glibc.close(socket)
        throw LoopbackHTTPError.connectFailed(errno: code)
      }
    }
    var result: Int32
    if isV6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = in_port_t(UInt16(port).bigEndian)
      _ = inet_pton(AF_INET6, host, &address.sin6_addr)
      result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      _ = inet_pton(AF_INET, host, &address.sin_addr)
      result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    guard result == 0 else {
      let code = errno
      _ = Glibc.close(socket)
      throw LoopbackHTTPError.connectFailed(errno: code)
    }
    var one: Int32 = 1
    _ = setsockopt(
      socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return socket
  }

  static func milliseconds(_ duration: Duration) -> Int32 {
    let components = duration.components
    let total = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    return Int32(clamping: max(0, total))
  }

  /// Runs blocking work on a fresh thread and awaits its result.
  static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T)
    async throws -> T
  {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread {
        continuation.resume(with: Result { try work() })
      }
      thread.start()
    }
  }
}
