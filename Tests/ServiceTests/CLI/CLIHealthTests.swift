import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `artwork health` against a running server and a closed port.
@Suite struct CLIHealthTests {
  @Test func healthyServerExitsZero() async throws {
    let server = try await RunningArtwork([:])
    let byURL = try await ServiceProcess.run(["health", "--url", "http://127.0.0.1:\(server.port)"])
    let byListen = try await ServiceProcess.run(
      ["health"], environment: ["ARTWORK_LISTEN": "0.0.0.0:\(server.port)"])
    await server.stop()
    #expect(byURL.status == 0, "\(byURL.error)")
    #expect(byListen.status == 0, "\(byListen.error)")
  }

  @Test func closedPortExitsOneSayingWhy() async throws {
    let port = ServiceProcess.freePort()
    let result = try await ServiceProcess.run(
      ["health"], environment: ["ARTWORK_LISTEN": "127.0.0.1:\(port)"])
    #expect(result.status == 1)
    #expect(
      result.error == "artwork health: http://127.0.0.1:\(port)/healthz: connection refused\n")
  }

  /// A listener that takes the connection (the kernel's backlog) and never answers: the probe
  /// gives up at its deadline, and says so.
  @Test func aSilentServerExitsOneAtTheDeadline() async throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    try #require(bound && listen(fd, 8) == 0)
    let port = Int(UInt16(bigEndian: address.sin_port))
    let start = ContinuousClock.now
    let result = try await ServiceProcess.run(["health", "--url", "http://127.0.0.1:\(port)"])
    #expect(result.status == 1)
    #expect(
      result.error == "artwork health: http://127.0.0.1:\(port)/healthz: no answer within 3 s\n",
      "\(result.error)")
    #expect(ContinuousClock.now - start >= .seconds(3))
  }

  @Test func otherStatusExitsOne() async throws {
    let server = try await RunningArtwork([:])
    let result = try await ServiceProcess.run(
      ["health", "--url", "http://127.0.0.1:\(server.port)/nothing-here"])
    await server.stop()
    #expect(result.status == 1)
    #expect(result.error.hasSuffix(": status 404\n"), "\(result.error)")
  }
}
