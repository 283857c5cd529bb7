import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `artwork serve` as operators run it: configuration errors, refusing an open listener, logs on
/// standard error, and draining in-flight requests on SIGTERM.
@Suite struct ServiceProcessTests {
  static func storageDirectory() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-serve-\(UUID().uuidString)")
  }

  /// Polls `/healthz` until it answers 200 (bounded; the child may still be starting).
  static func waitUntilHealthy(port: Int, child: ServiceProcess) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      if let client = try? await LoopbackHTTPClient(port: port, timeout: .seconds(5)),
        let response = try? await client.send(LoopbackHTTPRequest("GET", "/healthz")),
        response.status == 200
      {
        client.close()
        return true
      }
      if await child.exitStatus(within: .zero) != nil { return false }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return false
  }

  @Test func badConfigurationExitsTwoListingEveryProblem() async throws {
    let result = try await ServiceProcess.run(
      ["serve"],
      environment: [
        "ARTWORK_MAX_PIXELS": "-1", "ARTWORK_WORKERS": "zero",
        "ARTWORK_STORAGE": Self.storageDirectory().path,
      ])
    #expect(result.status == 2)
    #expect(result.error.contains("ARTWORK_MAX_PIXELS"), "\(result.error)")
    #expect(result.error.contains("ARTWORK_WORKERS"), "\(result.error)")
  }

  @Test func openListenerWithoutTokensRefusesToStart() async throws {
    let storage = Self.storageDirectory()
    defer { try? FileManager.default.removeItem(at: storage) }
    let result = try await ServiceProcess.run(
      ["serve"], environment: ["ARTWORK_LISTEN": "0.0.0.0:0", "ARTWORK_STORAGE": storage.path])
    #expect(result.status == 2)
    #expect(result.error.contains("ARTWORK_LISTEN"), "\(result.error)")
    #expect(!result.error.contains("\"listening\""))
  }

  /// SIGTERM while an upload is in flight: the upload still gets its 201, the listener closes,
  /// and the process exits 0. Every request was logged as a JSON line on standard error.
  @Test func sigtermDrainsInFlightUploads() async throws {
    let storage = Self.storageDirectory()
    defer { try? FileManager.default.removeItem(at: storage) }
    let port = ServiceProcess.freePort()
    let child = try ServiceProcess(
      ["serve"],
      environment: [
        "ARTWORK_LISTEN": "127.0.0.1:\(port)", "ARTWORK_STORAGE": storage.path,
        "ARTWORK_PUBLIC_URL": "http://127.0.0.1:\(port)", "ARTWORK_SHUTDOWN_GRACE": "60s",
        "ARTWORK_RETENTION": "0", "ARTWORK_LOG_LEVEL": "info",
      ])
    #expect(await Self.waitUntilHealthy(port: port, child: child), "\(child.errorOutput)")

    // An idle keep-alive connection must not hold the drain until the grace runs out.
    let idle = try await LoopbackHTTPClient(port: port, timeout: .seconds(10))
    defer { idle.close() }
    _ = try? await idle.send(LoopbackHTTPRequest("GET", "/healthz"))

    // The upload's last body byte handed to the socket marks it as in flight.
    let form = MultipartForm(
      fields: [("shape", "poster"), ("size", "1200")], image: Fixtures.bytes("photo-large.jpg"))
    let sent = Gate()
    let remaining = Locked(form.bytes[...])
    let upload = Task {
      try await ServiceHarness.exchange(port: port) { client in
        try await client.send(
          LoopbackHTTPRequest(
            "POST", "/v1/artwork", headers: [("Content-Type", form.contentType)],
            body: .generator(length: form.bytes.count) {
              let piece: [UInt8]? = remaining.withLock { rest in
                guard !rest.isEmpty else { return nil }
                let piece = Array(rest.prefix(64 * 1024))
                rest = rest.dropFirst(piece.count)
                return piece
              }
              if piece == nil { sent.open() }
              return piece
            }))
      }
    }
    await sent.wait()
    child.send(signal: SIGTERM)

    // New connections are refused once the listener has closed (bounded wait for that).
    var refused = false
    let deadline = ContinuousClock.now + .seconds(60)
    while !refused, ContinuousClock.now < deadline {
      if let client = try? await LoopbackHTTPClient(port: port, timeout: .seconds(2)) {
        client.close()
        try? await Task.sleep(for: .milliseconds(20))
      } else {
        refused = true
      }
    }
    #expect(refused)

    let response = try await upload.value
    #expect(response.status == 201, "\(response.text)")
    // The grace is 60 s; ending well within it shows nothing waited for the idle connection.
    #expect(await child.exitStatus(within: .seconds(40)) == 0, "\(child.errorOutput)")
    #expect((try? await LoopbackHTTPClient(port: port, timeout: .seconds(2))) == nil)

    let logged = child.errorOutput.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
    let request = try #require(
      logged.first { $0["msg"] as? String == "request" && $0["path"] as? String == "/v1/artwork" },
      "\(child.errorOutput)")
    #expect(request["method"] as? String == "POST")
    #expect(request["status"] as? Int == 201)
    #expect((request["request_id"] as? String)?.isEmpty == false)
    #expect(request["duration_ms"] != nil)
    #expect((request["bytes"] as? Int ?? 0) > 0)
    #expect(logged.contains { $0["msg"] as? String == "stopped" })
  }
}
