import Foundation
import Observability
import Storage
import TestSupport

@testable import ArtworkCore
@testable import ArtworkService

/// An in-process `ArtworkServer` on an ephemeral loopback port, for service-level tests.
///
/// Storage is a fresh temporary directory unless `ARTWORK_STORAGE` is given (to restart on the
/// same data, or to use S3). Call `stop()` when a test owns the server; suite-wide servers live
/// as long as the test process.
final class RunningArtwork: Sendable {
  let server: ArtworkServer
  /// The environment it was started with (to start another on the same storage).
  let environment: [String: String]
  /// The storage directory made here, if any (removed by `stop`).
  let directory: URL?

  /// The port it listens on, on 127.0.0.1.
  var port: Int { server.port }

  /// Starts a server with `environment` over loopback defaults, its storage wrapped in
  /// `storageLayer`.
  init(
    _ environment: [String: String],
    storageLayer: @Sendable (any ArtworkStorage) -> any ArtworkStorage = { $0 }
  ) async throws {
    Runtime.initialize()
    var full = [
      "ARTWORK_LISTEN": "127.0.0.1:0", "ARTWORK_PUBLIC_URL": "http://127.0.0.1:9",
      "ARTWORK_LOG_LEVEL": "error",
    ]
    if environment["ARTWORK_STORAGE"] == nil {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("artwork-service-\(UUID().uuidString)")
      full["ARTWORK_STORAGE"] = directory.path
      self.directory = directory
    } else {
      directory = nil
    }
    full.merge(environment) { $1 }
    self.environment = full
    var config = try ServiceConfig(environment: full)
    // The test process is not `artwork`: workers run the built executable.
    config.workerExecutable = ServiceProcess.executable.path
    server = try await ArtworkServer(
      config: config, logger: Logger(level: .error), storageLayer: storageLayer)
  }

  /// Shuts the server down (in-flight requests get the configured grace) and removes the
  /// storage directory it made, unless `keepingStorage` (to start another on it).
  func stop(keepingStorage: Bool = false) async {
    await server.shutdown()
    if !keepingStorage, let directory { try? FileManager.default.removeItem(at: directory) }
  }

  /// One request on a connection of its own.
  func send(_ request: LoopbackHTTPRequest, timeout: Duration = .seconds(60)) async throws
    -> LoopbackHTTPResponse
  {
    let client = try await LoopbackHTTPClient(port: port, timeout: timeout)
    defer { client.close() }
    return try await client.send(request)
  }

  /// `POST path` with a JSON body (written as given, so malformed JSON can be sent too).
  func post(
    _ path: String, json: String, contentType: String = "application/json",
    timeout: Duration = .seconds(60)
  ) async throws -> LoopbackHTTPResponse {
    try await send(
      LoopbackHTTPRequest(
        "POST", path, headers: [("Content-Type", contentType)], body: .bytes(Array(json.utf8))),
      timeout: timeout)
  }

  /// `POST path` with `{"url": url, ...options}` (options are JSON strings or numbers).
  func post(_ path: String, url: String, options: [String: any Sendable] = [:]) async throws
    -> LoopbackHTTPResponse
  {
    var object: [String: Any] = ["url": url]
    for (key, value) in options { object[key] = value }
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return try await post(path, json: String(decoding: data, as: UTF8.self))
  }

  /// `POST /v1/artwork` with raw image bytes.
  func upload(_ bytes: [UInt8], type: String = "image/jpeg") async throws -> LoopbackHTTPResponse {
    try await send(
      LoopbackHTTPRequest(
        "POST", "/v1/artwork", headers: [("Content-Type", type)], body: .bytes(bytes)))
  }

  /// `GET path`.
  func get(_ path: String, headers: [(String, String)] = [], timeout: Duration = .seconds(60))
    async throws -> LoopbackHTTPResponse
  {
    try await send(LoopbackHTTPRequest("GET", path, headers: headers), timeout: timeout)
  }
}

extension LoopbackHTTPResponse {
  /// The body as a JSON object (empty when it is not one).
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:]
  }

  /// A string member of the JSON body.
  func string(_ key: String) -> String? { json[key] as? String }

  /// The path of a hosted URL in the body's `image_url` (`/v1/images/...`).
  var imagePath: String? {
    guard let url = string("image_url"), let range = url.range(of: "/v1/images/") else {
      return nil
    }
    return String(url[range.lowerBound...])
  }

  /// Whether this is an RFC 9457 problem with `status`.
  func isProblem(_ status: Int) -> Bool {
    self.status == status && header("Content-Type") == "application/problem+json"
      && json["status"] as? Int == status
  }
}
