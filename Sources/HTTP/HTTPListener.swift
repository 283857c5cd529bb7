internal import CHTTPParser
import Glibc
import Synchronization

/// A bound, listening TCP socket, made before anything else starts so that a port in use stops
/// start-up before it creates anything. An `HTTPServer` takes it over; until then (or if
/// start-up fails) dropping it closes the socket.
public final class HTTPListener: Sendable {
  /// The port actually bound (useful with port 0).
  public let port: Int
  let descriptor: Int32
  /// Set once a server owns the descriptor (and closes it itself).
  private let taken = Atomic(false)

  /// Binds `host` (an IPv4 or IPv6 literal) and `port` and listens.
  public init(host: String, port: Int) throws(HTTPServerError) {
    guard (0...65535).contains(port) else {
      throw .invalidConfiguration("port must be 0...65535 (got \(port))")
    }
    var bound: UInt16 = 0
    let fd = artwork_http_listen(host, UInt16(port), 1024, &bound)
    if fd == -2 { throw .invalidHost(host) }
    guard fd >= 0 else {
      throw .startFailed(host: host, port: port, reason: String(cString: strerror(errno)))
    }
    descriptor = fd
    self.port = Int(bound)
  }

  /// Hands the descriptor to a server; nil if one has it already.
  func take() -> Int32? {
    taken.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
      .exchanged ? descriptor : nil
  }

  deinit {
    if !taken.load(ordering: .acquiring) { Glibc.close(descriptor) }
  }
}
