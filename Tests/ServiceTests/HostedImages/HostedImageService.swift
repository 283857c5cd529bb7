import Foundation
import TestSupport

@testable import ArtworkService

/// A service of its own for the hosted-image tests (deleting an image must not touch another
/// test's), with API tokens, loopback sources allowed, and `sig` a secret query parameter.
struct HostedImageService: Sendable {
  static let token = "hosted-token-0123456789abcdef"
  static let authorised = [("Authorization", "Bearer \(token)")]

  let service: RunningArtwork

  static func start(_ extra: [String: String] = [:]) async throws -> HostedImageService {
    var environment = [
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32", "ARTWORK_API_TOKENS": token,
      "ARTWORK_SECRET_PARAMS": "sig", "ARTWORK_SOURCE_TTL": "1h",
    ]
    environment.merge(extra) { $1 }
    return HostedImageService(service: try await RunningArtwork(environment))
  }

  var port: Int { service.port }
  var app: ArtworkApp { service.server.app }

  /// `POST /v1/artwork` of a URL, with the token.
  func post(url: String, size: Int = 96) async throws -> LoopbackHTTPResponse {
    try await send("POST", "/v1/artwork", json: #"{"url":"\#(url)","size":\#(size)}"#)
  }

  /// `POST /v1/artwork` of the coffee fixture, with the token.
  func upload(size: Int = 96, shape: String = "square") async throws -> LoopbackHTTPResponse {
    try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/artwork?size=\(size)&shape=\(shape)",
        headers: [("Content-Type", "image/jpeg")] + Self.authorised,
        body: .bytes(Fixtures.bytes("coffee.jpg"))))
  }

  /// `DELETE path`, with the token unless `authorised` is false.
  func delete(_ path: String, authorised: Bool = true) async throws -> LoopbackHTTPResponse {
    try await service.send(
      LoopbackHTTPRequest("DELETE", path, headers: authorised ? Self.authorised : []))
  }

  func get(_ path: String) async throws -> LoopbackHTTPResponse { try await service.get(path) }

  /// A request with a JSON body and the token.
  func send(_ method: String, _ path: String, json: String) async throws -> LoopbackHTTPResponse {
    try await service.send(
      LoopbackHTTPRequest(
        method, path, headers: [("Content-Type", "application/json")] + Self.authorised,
        body: .bytes(Array(json.utf8))))
  }

  func stop() async { await service.stop() }
}

extension LoopbackHTTPResponse {
  /// `/v1/images/{id}.json` for the hosted image in `image_url`.
  var factsPath: String? {
    guard let path = imagePath, let dot = path.lastIndex(of: ".") else { return nil }
    return path[..<dot] + ".json"
  }
}
