import Foundation
import Glibc
import TestSupport
import Testing

@testable import HTTP

/// Every request is bounded in bytes and time whatever its route, refused or accepted: a length
/// too large for an `Int` is over every limit (never "no body"), a refused request's body is
/// read and dropped within `maxDiscardBytes` and never held, and a client that vanishes in the
/// middle of its body (a FIN or a reset with its last bytes) gives back at once what its
/// connection held: the socket, its slot, the in-flight count and the body reservation.
@Suite(.serialized) struct RequestBoundsTests {
  static func router() -> Router {
    var router = Router()
    router.add(.get, "/x") { _ in HTTPResponse(status: 200, body: .bytes(Array("x".utf8))) }
    router.add(.post, "/upload", maxBodyBytes: 4 << 20) { request in
      HTTPResponse(status: 200, body: .bytes(Array("\(request.body.count)".utf8)))
    }
    return router
  }

  /// The process's open file descriptors (the server's sockets among them).
  static func openDescriptors() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
  }

  /// The open descriptors once the runtime's own exist: the first timed wait of a process opens
  /// the timer descriptors of Swift's concurrency runtime, which stay.
  static func settledDescriptors() async throws -> Int {
    try await Task.sleep(for: .milliseconds(5))
    return openDescriptors()
  }

  /// What the open descriptors point at, for a failure's message.
  static func descriptorKinds() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
    }
  }

  /// Connects to the server, sends `head`, then body bytes as fast as the server takes them, up
  /// to `push` bytes; answers the first status line read and how many body bytes went out before
  /// the server closed.
  static func push(port: Int, head: String, push: Int) async throws -> (status: Int?, sent: Int) {
    try await Task.detached {
      let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      defer { Glibc.close(socket) }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
      var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
      setsockopt(
        socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      _ = Array(head.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
      let chunk = [UInt8](repeating: 0x61, count: 64 * 1024)
      var sent = 0
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      let deadline = ContinuousClock.now + .seconds(30)
      while sent < push, ContinuousClock.now < deadline {
        let count = chunk.withUnsafeBytes {
          send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        if count > 0 {
          sent += count
        } else if errno != EAGAIN && errno != EWOULDBLOCK {
          break
        } else {
          usleep(1000)
        }
        let got = buffer.withUnsafeMutableBytes {
          recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
        }
        if got > 0 { received += buffer[..<got] }
      }
      // Whatever answer came, read to the end.
      var probe = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      while poll(&probe, 1, 2000) > 0 {
        let got = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard got > 0 else { break }
        received += buffer[..<got]
      }
      let text = String(decoding: received.prefix(12), as: UTF8.self)
      return (text.hasPrefix("HTTP/1.1 ") ? Int(text.dropFirst(9).prefix(3)) : nil, sent)
    }.value
  }

  @Test(arguments: [
    ("POST /nothing HTTP/1.1", 404), ("PUT /x HTTP/1.1", 405), ("POST /upload HTTP/1.1", 413),
  ])
  func aLengthBeyondIntIsOverEveryLimitAndItsBodyIsNeverHeld(line: String, status: Int)
    async throws
  {
    let server = try TestServer(Self.router()) { configuration in
      configuration.maxDiscardBytes = 4 << 20
      configuration.lingerTimeout = .seconds(5)
    }
    let before = ProcFS.residentBytes()
    let descriptors = try await Self.settledDescriptors()
    let head = "\(line)\r\nHost: x\r\nContent-Length: 9223372036854775809\r\n\r\n"
    let (answered, sent) = try await Self.push(port: server.port, head: head, push: 200 << 20)
    #expect(answered == status)
    // The server stopped taking the body after its discard bound (plus socket buffers).
    #expect(sent < 40 << 20, "\(sent) bytes were taken")
    #expect(ProcFS.residentBytes() - before < 30 << 20)
    #expect(await server.eventually { server.openConnections == 0 })
    #expect(server.server.inFlightCount == 0)
    #expect(await server.eventually { Self.openDescriptors() <= descriptors })
    await server.stop()
  }

  /// A client that vanishes mid-upload, by FIN or by reset, with its last bytes: what its
  /// connection held is released at once, not at the body-rate deadline. The clients' last
  /// bytes and their FIN (or reset) reach the server while its one loop is busy, so that it
  /// sees both in one wake-up: the case that a read stopping at a short read missed.
  @Test(arguments: [false, true])
  func aClientGoneMidBodyReleasesEverythingAtOnce(reset: Bool) async throws {
    var router = Self.router()
    // Holds the loop thread, as a slow answer from memory would.
    let holdLoop: Router.Immediate = { _ in
      usleep(400_000)
      return HTTPResponse(status: 200)
    }
    let never: @Sendable (HTTPRequest) async -> HTTPResponse = { _ in HTTPResponse(status: 200) }
    router.add(.get, "/busy", immediate: holdLoop, never)
    let server = try TestServer(router) { configuration in
      configuration.threadCount = 1
      configuration.idleTimeout = .seconds(75)
    }
    let port = server.port
    let descriptors = try await Self.settledDescriptors()
    let connections = 40
    let sockets = try await Task.detached { () throws -> [Int32] in
      try (0..<connections).map { _ in
        let socket = try Self.connect(port)
        let head = Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n".utf8)
        _ = head.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        return socket
      }
    }.value
    #expect(await server.eventually { server.server.inFlightCount == connections })
    let busy = try Self.connect(port)
    defer { Glibc.close(busy) }
    let get = Array("GET /busy HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    _ = get.withUnsafeBytes { send(busy, $0.baseAddress, $0.count, 0) }
    try await Task.sleep(for: .milliseconds(100))
    // While the loop sleeps: each client's last bytes, then its FIN or reset.
    let last = [UInt8](repeating: 0x62, count: 20_000)
    for socket in sockets {
      _ = last.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
      if reset {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(
          socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
      } else {
        shutdown(socket, Int32(SHUT_WR))
      }
      Glibc.close(socket)
    }
    #expect(await server.eventually { server.openConnections <= 1 })
    #expect(await server.eventually { server.server.inFlightCount == 0 })
    #expect(server.server.core.bodyBudget.reserved == 0)
    // The busy client's socket and the server's end of it are all that is left open.
    #expect(
      await server.eventually { Self.openDescriptors() <= descriptors + 2 },
      "\(Self.openDescriptors()) descriptors open, \(descriptors) before: \(Self.descriptorKinds())"
    )
    await server.stop()
  }

  static func connect(_ port: Int) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      Glibc.close(socket)
      throw POSIXError(.ECONNREFUSED)
    }
    return socket
  }
}
