import Foundation
import Observability
import TestSupport

@testable import ArtworkCore
@testable import ArtworkService

/// An in-process `ArtworkServer` on an ephemeral loopback port with its own storage directory,
/// for one test. `run` always shuts the server down and removes the directory.
struct ServiceHarness: Sendable {
  let server: ArtworkServer
  /// The storage root (`objects/`, `records/`, `tmp/` beneath it).
  let storage: URL
  var port: Int { server.port }

  /// Starts a server with `environment` laid over the test defaults (loopback, port 0, a fresh
  /// temporary storage directory), runs `body`, then stops it.
  static func run<T: Sendable>(
    _ environment: [String: String] = [:],
    logSink: (@Sendable (String) -> Void)? = nil,
    _ body: (ServiceHarness) async throws -> T
  ) async throws -> T {
    Runtime.initialize()
    let storage = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-svc-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: storage) }
    var settings = [
      "ARTWORK_LISTEN": "127.0.0.1:0", "ARTWORK_STORAGE": storage.path,
      "ARTWORK_PUBLIC_URL": "http://127.0.0.1:9", "ARTWORK_RETENTION": "0",
      // The tests that break storage ask /readyz at once: a verdict for every probe.
      "ARTWORK_READINESS_INTERVAL": "0",
    ]
    settings.merge(environment) { _, new in new }
    var config = try ServiceConfig(environment: settings)
    // The test process is not `artwork`: workers run the built executable.
    config.workerExecutable = ServiceProcess.executable.path
    let logger =
      logSink.map { Logger(level: .info, sink: $0) } ?? Logger(level: .error, sink: { _ in })
    let server = try await ArtworkServer(config: config, logger: logger)
    let harness = ServiceHarness(server: server, storage: storage)
    do {
      let result = try await body(harness)
      await server.shutdown()
      return result
    } catch {
      await server.shutdown()
      throw error
    }
  }

  /// Sends one request on a fresh connection. Image work on a loaded 2-core machine can be slow,
  /// so the wait is generous (it bounds a hang, it is not a speed assertion).
  func send(_ request: LoopbackHTTPRequest, timeout: Duration = .seconds(120)) async throws
    -> LoopbackHTTPResponse
  {
    try await Self.exchange(port: port, timeout: timeout) { try await $0.send(request) }
  }

  /// Runs `body` on a fresh connection to `port`, closing it afterwards.
  static func exchange<T: Sendable>(
    port: Int, timeout: Duration = .seconds(120),
    _ body: (LoopbackHTTPClient) async throws -> T
  ) async throws -> T {
    let client = try await LoopbackHTTPClient(port: port, timeout: timeout)
    defer { client.close() }
    return try await body(client)
  }

  /// `GET path`.
  func get(_ path: String, headers: [(String, String)] = []) async throws -> LoopbackHTTPResponse {
    try await send(LoopbackHTTPRequest("GET", path, headers: headers))
  }

  /// `POST /v1/artwork` of `image` as a multipart upload with option fields.
  func upload(
    _ image: [UInt8], type: String = "image/jpeg", fields: [(String, String)] = [],
    path: String = "/v1/artwork", headers: [(String, String)] = []
  ) async throws -> LoopbackHTTPResponse {
    let form = MultipartForm(fields: fields, image: image, imageType: type)
    return try await send(
      LoopbackHTTPRequest(
        "POST", path, headers: [("Content-Type", form.contentType)] + headers,
        body: .bytes(form.bytes)))
  }

  /// `POST path` with `image` as the raw body.
  func uploadRaw(
    _ image: [UInt8], type: String, path: String = "/v1/artwork", headers: [(String, String)] = []
  ) async throws -> LoopbackHTTPResponse {
    try await send(
      LoopbackHTTPRequest(
        "POST", path, headers: [("Content-Type", type)] + headers, body: .bytes(image)))
  }

  /// Every regular file under the storage's `objects/` directory.
  func objectFiles() -> [String] {
    let root = storage.appendingPathComponent("objects")
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var files: [String] = []
    while let path = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let full = root.appendingPathComponent(path).path
      if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        files.append(path)
      }
    }
    return files.sorted()
  }
}

/// A `multipart/form-data` body: option fields first, then the file part `image`.
struct MultipartForm {
  let boundary = "artwork-test-\(UUID().uuidString)"
  var bytes: [UInt8] = []

  init(fields: [(String, String)], image: [UInt8]?, imageType: String = "image/jpeg") {
    for (name, value) in fields {
      append("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n")
      append("\(value)\r\n")
    }
    if let image {
      append(
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"upload\"\r\n"
          + "Content-Type: \(imageType)\r\n\r\n")
      bytes += image
      append("\r\n")
    }
    append("--\(boundary)--\r\n")
  }

  var contentType: String { "multipart/form-data; boundary=\(boundary)" }

  private mutating func append(_ text: String) { bytes += Array(text.utf8) }
}
