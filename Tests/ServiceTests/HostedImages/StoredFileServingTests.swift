import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// On filesystem storage a hosted image is answered from its stored file (`sendfile` from the
/// page cache), kept open by the hot-image cache: no copy of it in the process's memory, and
/// the file let go when the image is deleted.
@Suite struct StoredFileServingTests {
  /// The paths this process holds open under `directory`.
  static func openPaths(under directory: String) -> [String] {
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return fds.compactMap {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
    }.filter { $0.hasPrefix(directory) }
  }

  @Test func anImageIsSentFromItsStoredFileAndLetGoWhenDeleted() async throws {
    let hosted = try await HostedImageService.start()
    let created = try await hosted.upload(size: 256)
    #expect(created.status == 201, "\(created.text)")
    let path = try #require(created.imagePath)
    let key = try #require(ArtworkKey(fileName: String(path.dropFirst("/v1/images/".count))))
    let directory = try #require(hosted.service.directory?.path)
    let storedPath =
      "\(directory)/objects/\(key.id.hex.prefix(2))/\(key.id.hex.dropFirst(2).prefix(2))/\(key.fileName)"
    let stored = try [UInt8](Data(contentsOf: URL(fileURLWithPath: storedPath)))

    let first = try await hosted.get(path)
    #expect(first.status == 200)
    #expect(first.body == stored)
    #expect(
      first.header("ETag") != nil && first.header("Cache-Control")?.contains("immutable") == true)
    #expect(hosted.app.hotImages.openFiles == 1)
    #expect(hosted.app.hotImages.totalBytes == 0, "the body is the stored file, not a copy")
    #expect(Self.openPaths(under: directory).contains(storedPath))

    // Later answers, to curl too, come from the kept file: a hit, the same bytes.
    let hitsBefore = hosted.app.hotImages.stats.hits
    let curl = try await ServiceProcess.runProgram(
      "curl",
      [
        "-sS", "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
        "http://127.0.0.1:\(hosted.port)\(path)",
      ])
    #expect(curl.output == "200 \(stored.count)", "\(curl.error)")
    let again = try await hosted.get(path)
    #expect(again.body == stored)
    #expect(hosted.app.hotImages.stats.hits >= hitsBefore + 2)
    let head = try await hosted.service.send(LoopbackHTTPRequest("HEAD", path))
    #expect(head.header("Content-Length") == "\(stored.count)" && head.body.isEmpty)

    #expect(try await hosted.delete(path).status == 204)
    #expect(hosted.app.hotImages.openFiles == 0)
    expectProblem(try await hosted.get(path), 404)
    #expect(!Self.openPaths(under: directory).contains { $0.hasPrefix(storedPath) })
    await hosted.stop()
  }

  /// With the cache off, a GET still answers from the file, and keeps nothing open after.
  @Test func withTheCacheOffNothingStaysOpen() async throws {
    let hosted = try await HostedImageService.start(["ARTWORK_IMAGE_CACHE_BYTES": "0"])
    let created = try await hosted.upload(size: 128)
    let path = try #require(created.imagePath)
    let directory = try #require(hosted.service.directory?.path)
    for _ in 0..<3 { #expect(try await hosted.get(path).status == 200) }
    #expect(hosted.app.hotImages.openFiles == 0)
    // Each answer's file is closed once sent (the connection may finish a moment later).
    var open = Self.openPaths(under: directory + "/objects")
    for _ in 0..<100 where !open.isEmpty {
      try await Task.sleep(for: .milliseconds(20))
      open = Self.openPaths(under: directory + "/objects")
    }
    #expect(open.isEmpty, "\(open)")
    await hosted.stop()
  }
}
