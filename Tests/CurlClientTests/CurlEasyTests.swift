import CurlClient
import TestSupport
import Testing

/// One transfer against the Python origin on loopback: the body, the status, the socket curl
/// opened, and a refusal from the open-socket hook.
@Suite struct CurlEasyTests {
  @Test func fetchesABodyAndReportsTheEndpoint() async throws {
    let origin = try await OriginServer.start()
    let easy = CurlEasy()
    easy.set(.url, "http://127.0.0.1:\(origin.http)/image.png")
    var body: [UInt8] = []
    easy.onBody = {
      body += $0
      return true
    }
    var endpoints: [CurlEndpoint] = []
    easy.onOpenSocket = {
      endpoints.append($0)
      return true
    }
    let status = easy.perform()
    #expect(status.isOK, "\(status)")
    #expect(easy.info(.responseCode) == 200)
    #expect(Array(body.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    #expect(endpoints.map(\.port) == [origin.http])
  }

  @Test func aRefusedSocketEndsTheTransferBeforeAnyConnection() async throws {
    let origin = try await OriginServer.start()
    let before = try origin.totalAccepts()
    let easy = CurlEasy()
    easy.set(.url, "http://127.0.0.1:\(origin.http)/image.png")
    easy.onOpenSocket = { _ in false }
    #expect(!easy.perform().isOK)
    #expect(try origin.totalAccepts() == before)
  }
}
