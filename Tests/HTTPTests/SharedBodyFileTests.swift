import Foundation
import TestSupport
import Testing

@testable import HTTP

/// Bodies sent from a file they were handed (`SharedBody(adoptingFile:count:)`): a stored object
/// on the filesystem, answered from its own file.
@Suite struct SharedBodyFileTests {
  /// A temp file holding `bytes`, opened read-only; the path is unlinked at once (the open file
  /// stays whole, as a stored object removed by retention does).
  static func openedFile(_ bytes: [UInt8]) throws -> (descriptor: Int32, path: String) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stored-\(UUID().uuidString)"
    ).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    return (open(path, O_RDONLY | O_CLOEXEC), path)
  }

  /// What the process's descriptor `fd` is open on now (nil when it is closed).
  static func target(_ fd: Int32) -> String? {
    try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
  }

  static let bytes: [UInt8] = (0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }

  @Test func anAdoptedFileIsAnsweredWhole() async throws {
    let (descriptor, _) = try Self.openedFile(Self.bytes)
    #expect(descriptor >= 0)
    let body = try #require(SharedBody(adoptingFile: descriptor, count: Self.bytes.count))
    #expect(body.isStoredFile && body.file == descriptor)
    #expect(!SharedBody(Self.bytes).isStoredFile)
    var router = Router()
    router.add(.get, "/stored") { _ in HTTPResponse(status: 200, body: .shared(body)) }
    let server = try TestServer(router)
    let client = try await server.client()
    for _ in 0..<2 {
      let response = try await client.send(.init("GET", "/stored"))
      #expect(response.header("Content-Length") == "1500000")
      #expect(response.body == Self.bytes)
    }
    let curl = try await ServiceProcess.runProgram(
      "curl",
      [
        "-sS", "-o", "/dev/null", "-w", "%{size_download}",
        "http://127.0.0.1:\(server.port)/stored",
      ])
    #expect(curl.output == "1500000", "\(curl.error)")
    await server.stop()
  }

  /// The body owns the file: its last reference closes it (a deleted image's file is let go).
  @Test func theLastReferenceClosesTheFile() throws {
    let (descriptor, path) = try Self.openedFile([1, 2, 3])
    #expect(Self.target(descriptor)?.hasPrefix(path) == true)
    do {
      let body = SharedBody(adoptingFile: descriptor, count: 3)
      #expect(body?.bytes() == [1, 2, 3])
    }
    // Closed: the number is free, or reused by some other file since.
    #expect(Self.target(descriptor)?.hasPrefix(path) != true)
  }

  /// A file that shrinks behind the server's back (it must not, objects are never rewritten;
  /// a disk may fail) ends the answer short and closes the connection rather than spinning;
  /// the server goes on answering.
  @Test func aFileShorterThanItsCountClosesTheConnection() async throws {
    let (descriptor, _) = try Self.openedFile(Array(Self.bytes.prefix(1000)))
    let body = try #require(SharedBody(adoptingFile: descriptor, count: 5000))
    var router = Router()
    router.add(.get, "/short") { _ in HTTPResponse(status: 200, body: .shared(body)) }
    router.add(.get, "/ok") { _ in HTTPResponse(status: 200, body: .bytes([1, 2, 3])) }
    let server = try TestServer(router)
    let curl = try await ServiceProcess.runProgram(
      "curl", ["-sS", "-o", "/dev/null", "http://127.0.0.1:\(server.port)/short"])
    #expect(curl.status == 18, "curl: partial file (\(curl.status)) \(curl.error)")
    let client = try await server.client()
    #expect(try await client.send(.init("GET", "/ok")).body == [1, 2, 3])
    await server.stop()
  }
}
