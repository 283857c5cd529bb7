import Foundation
import HTTP
import TestSupport
import Testing

/// `artwork serve` failing to start says why in one sentence, exits 1 and creates nothing; the
/// start-up line describes storage in words.
@Suite struct ServiceStartupTests {
  /// The JSON log lines a child wrote on standard error.
  static func logLines(_ text: String) -> [[String: Any]] {
    text.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
  }

  @Test func portInUseNamesTheCauseAndCreatesNothing() async throws {
    let taken = try HTTPListener(host: "127.0.0.1", port: 0)
    let storage = ServiceProcessTests.storageDirectory()
    defer { try? FileManager.default.removeItem(at: storage) }
    let result = try await ServiceProcess.run(
      ["serve"],
      environment: ["ARTWORK_LISTEN": "127.0.0.1:\(taken.port)", "ARTWORK_STORAGE": storage.path])
    #expect(result.status == 1, "\(result.error)")
    let line = try #require(
      Self.logLines(result.error).first { $0["msg"] as? String == "cannot start" })
    #expect(
      line["reason"] as? String
        == "cannot listen on 127.0.0.1:\(taken.port): address already in use")
    #expect(!FileManager.default.fileExists(atPath: storage.path), "storage was created")
  }

  @Test func storageThatCannotBeCreatedIsNamedInWords() async throws {
    let scratch = ServiceProcessTests.storageDirectory()
    defer { try? FileManager.default.removeItem(at: scratch) }
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let file = scratch.appendingPathComponent("a-file")
    try Data([0]).write(to: file)
    let result = try await ServiceProcess.run(
      ["serve"],
      environment: [
        "ARTWORK_LISTEN": "127.0.0.1:0", "ARTWORK_STORAGE": file.path + "/data",
      ])
    #expect(result.status == 1, "\(result.error)")
    let line = try #require(
      Self.logLines(result.error).first { $0["msg"] as? String == "cannot start" })
    let reason = try #require(line["reason"] as? String)
    #expect(
      reason
        == "cannot open storage filesystem \(file.path)/data: a storage path that should be a "
        + "directory is not one: mkdir(\(file.path)): Not a directory")
    #expect(!result.error.contains("NSCocoaErrorDomain"))
    #expect(!result.error.contains("try again shortly"))
  }

  /// A second server on the same directory is refused at start; the first one's start-up line
  /// describes its storage as `filesystem PATH`.
  @Test func aSecondServerOnOneDirectoryIsRefused() async throws {
    let storage = ServiceProcessTests.storageDirectory()
    defer { try? FileManager.default.removeItem(at: storage) }
    let port = ServiceProcess.freePort()
    let first = try ServiceProcess(
      ["serve"],
      environment: [
        "ARTWORK_LISTEN": "127.0.0.1:\(port)", "ARTWORK_STORAGE": storage.path,
        "ARTWORK_RETENTION": "0",
      ])
    #expect(await ServiceProcessTests.waitUntilHealthy(port: port, child: first))
    // The log goes out through its own writer thread: the line may follow the first answer.
    var found: [String: Any]?
    for _ in 0..<100 where found == nil {
      found = Self.logLines(first.errorOutput).first { $0["msg"] as? String == "listening" }
      if found == nil { try await Task.sleep(for: .milliseconds(50)) }
    }
    let listening = try #require(found)
    #expect(listening["storage"] as? String == "filesystem \(storage.path)")

    let second = try await ServiceProcess.run(
      ["serve"], environment: ["ARTWORK_LISTEN": "127.0.0.1:0", "ARTWORK_STORAGE": storage.path])
    #expect(second.status == 1)
    let line = try #require(
      Self.logLines(second.error).first { $0["msg"] as? String == "cannot start" })
    #expect(
      (line["reason"] as? String)?.hasPrefix(
        "cannot open storage filesystem \(storage.path): another artwork server is using the "
          + "storage directory") == true, "\(line)")
    first.send(signal: SIGTERM)
    #expect(await first.exitStatus(within: .seconds(30)) == 0)
  }
}
