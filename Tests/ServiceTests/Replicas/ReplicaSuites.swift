import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// The suites that run services on one SeaweedFS (each suite its own server), one at a time:
/// every SeaweedFS takes a few hundred MB and the outage suite stops its server.
@Suite(.serialized) struct ReplicaSuites {}

/// Service replicas on S3 storage.
enum Replica {
  /// The environment of a service on the suite's SeaweedFS under `prefix`.
  static func environment(prefix: String, secretKey: String = SeaweedFS.secretKey) throws
    -> [String: String]
  {
    let server = try SeaweedFSScope.server
    return [
      "ARTWORK_STORAGE": "s3://\(server.bucket)/\(prefix)", "ARTWORK_S3_ENDPOINT": server.endpoint,
      "ARTWORK_S3_REGION": SeaweedFS.region, "ARTWORK_S3_ACCESS_KEY_ID": SeaweedFS.accessKey,
      "ARTWORK_S3_SECRET_ACCESS_KEY": secretKey, "ARTWORK_PRIVATE_SOURCES": "127.0.0.1",
      // The outage tests ask /readyz as the store goes: a verdict for every probe.
      "ARTWORK_READINESS_INTERVAL": "0",
    ]
  }

  /// Two services sharing one fresh prefix.
  static func pair() async throws -> (RunningArtwork, RunningArtwork) {
    let environment = try environment(prefix: "replicas-\(UUID().uuidString.prefix(8))")
    return (try await RunningArtwork(environment), try await RunningArtwork(environment))
  }

  /// `POST /v1/artwork?size=N` with the coffee fixture.
  static func upload(_ service: RunningArtwork, size: Int) async throws -> LoopbackHTTPResponse {
    try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/artwork?size=\(size)", headers: [("Content-Type", "image/jpeg")],
        body: .bytes(Fixtures.bytes("coffee.jpg"))))
  }
}
