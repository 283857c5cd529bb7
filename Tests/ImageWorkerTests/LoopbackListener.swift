import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A listening loopback socket that counts the connections it is offered.
struct LoopbackListener: ~Copyable {
  let descriptor: Int32
  let port: Int

  init() throws {
    let made = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(made, $0, length) == 0 && getsockname(made, $0, &length) == 0
      }
    }
    guard bound, listen(made, 16) == 0 else {
      close(made)
      throw POSIXError(.EADDRNOTAVAIL)
    }
    descriptor = made
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit { close(descriptor) }

  /// How many connections are waiting to be accepted now (each accepted and closed).
  func acceptedConnections() -> Int {
    var count = 0
    while true {
      let connection = accept(descriptor, nil, nil)
      guard connection >= 0 else { return count }
      close(connection)
      count += 1
    }
  }
}
