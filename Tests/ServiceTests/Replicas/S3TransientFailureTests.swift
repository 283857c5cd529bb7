import Foundation
import TestSupport
import Testing

@testable import ArtworkService
@testable import CurlClient
@testable import Storage

/// `S3Storage` asks again when the store answers a transient 5xx (SeaweedFS answers
/// `500 InternalError` under concurrent writes), and gives up with 503 + Retry-After when it
/// persists. The store is origin.py's `/flaky/N/...` route: N failures, then success.
@Suite struct S3TransientFailureTests {
  static func storage(_ origin: OriginServer, failures: Int) -> S3Storage {
    Curl.globalInit()
    return S3Storage(
      configuration: S3Configuration(
        endpoint: "http://127.0.0.1:\(origin.http)", bucket: "flaky",
        prefix: "\(failures)/\(UUID().uuidString.lowercased())", accessKey: "key",
        secretKey: "secret"))
  }

  @Test func aFewInternalErrorsAreRetriedAway() async throws {
    let origin = try await OriginServer.start()
    let storage = Self.storage(origin, failures: 2)
    let record = try await storage.getRecord("a record")
    #expect(record == Array("ok".utf8))
    let counts = try origin.counts().requests.filter { $0.key.hasPrefix("/flaky/") }
    #expect(counts.values.sorted() == [3])
  }

  @Test func persistentInternalErrorsAreStorageUnavailable() async throws {
    let origin = try await OriginServer.start()
    let storage = Self.storage(origin, failures: 100)
    do {
      _ = try await storage.getRecord("a record")
      Issue.record("a store answering 500 every time gave a record")
    } catch {
      #expect(error.kind == .storageUnavailable)
      #expect(error.retryAfter != nil)
    }
    let counts = try origin.counts().requests.filter { $0.key.hasPrefix("/flaky/") }
    #expect(counts.values.sorted() == [S3Storage.attempts])
  }
}
