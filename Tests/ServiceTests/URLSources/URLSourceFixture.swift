import Foundation
import TestSupport

@testable import ArtworkService

/// The origin and servers the URL-source suites share: each test uses its own query string, so
/// per-target counters stay per test.
enum URLSourceFixture {
  /// One origin for the shared servers.
  static let origin = Result { try OriginServer() }

  /// Loopback 127.0.0.1/32 allowed, the test CA trusted, a 1 MB source limit.
  static let allowing = Task {
    try await RunningArtwork([
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32", "ARTWORK_CA_FILE": TestCertificates.caFile,
      "ARTWORK_MAX_SOURCE_BYTES": "1000000", "ARTWORK_FETCH_TIMEOUT": "30s",
      "ARTWORK_SOURCE_TTL": "1h", "ARTWORK_FAILURE_TTL": "1h",
    ])
  }

  /// The default address policy: only public sources.
  static let publicOnly = Task {
    try await RunningArtwork(["ARTWORK_CA_FILE": TestCertificates.caFile])
  }

  /// A fresh query string, so a test's URL is its own cache entry and counter.
  static func unique(_ name: String = #function) -> String {
    "?t=\(name.prefix { $0 != "(" })-\(UUID().uuidString.prefix(8))"
  }

  /// `http://127.0.0.1:{http}{path}` on the shared origin.
  static func url(_ path: String) throws -> String {
    "http://127.0.0.1:\(try origin.get().http)\(path)"
  }
}
