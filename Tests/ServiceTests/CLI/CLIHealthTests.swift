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

  @Test func otherStatusExitsOne() async throws {
    let server = try await RunningArtwork([:])
    let result = try await ServiceProcess.run(
      ["health", "--url", "http://127.0.0.1:\(server.port)/nothing-here"])
    await server.stop()
    #expect(result.status == 1)
    #expect(result.error.hasSuffix(": status 404\n"), "\(result.error)")
  }
}
