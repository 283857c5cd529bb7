import Foundation
import TestSupport

@testable import ArtworkService

/// The provider route as the applications call it, against the shared loopback origin that
/// stands in for TheTVDB, TMDB and a media server.
enum ProviderService {
  /// Placeholder hosts on the shared origin, under a path of this test's own (`/u/{id}`), so
  /// each test's sources are its own cache entries and counters.
  static func hosts(_ name: String = #function) throws -> (hosts: [String: String], prefix: String)
  {
    let prefix = "/u/\(name.prefix { $0 != "(" })-\(UUID().uuidString.prefix(8))"
    let base = try URLSourceFixture.url(prefix)
    return (["TVDB": base, "TMDB": base, "SERVER": base], prefix)
  }

  /// `POST /v1/providers/{provider}{query}` with `body` as `contentType`, and `headers`.
  static func post(
    _ service: RunningArtwork, _ provider: String, _ body: [UInt8],
    contentType: String? = "application/json", query: String = "",
    headers: [(String, String)] = []
  ) async throws -> LoopbackHTTPResponse {
    var fields = headers
    if let contentType { fields.append(("Content-Type", contentType)) }
    return try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/providers/\(provider)\(query)", headers: fields, body: .bytes(body)))
  }
}

extension LoopbackHTTPResponse {
  /// The answer's `artwork` object.
  var artwork: [String: Any] { json["artwork"] as? [String: Any] ?? [:] }
  /// The answer's `item` object.
  var item: [String: Any] { json["item"] as? [String: Any] ?? [:] }
}
