import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ArtworkCore
@testable import CurlClient
@testable import Storage

/// `S3Storage` against a real S3 server (SeaweedFS, SigV4 enforced), one server for the suite.
/// Each test works under its own key prefix, so tests never see each other's objects.
@Suite(.serialized, .seaweedFS) struct S3StorageTests {
  /// A storage on the suite's server under a fresh prefix.
  static func storage(
    secretKey: String = SeaweedFS.secretKey, accessKey: String = SeaweedFS.accessKey,
    bucket: String? = nil, sweepPaging: S3Storage.SweepPaging = .init(),
    now: (@Sendable () -> Int64)? = nil
  ) throws -> S3Storage {
    Curl.globalInit()
    let server = try SeaweedFSScope.server
    let configuration = S3Configuration(
      endpoint: server.endpoint, region: SeaweedFS.region, bucket: bucket ?? server.bucket,
      prefix: "test-\(UUID().uuidString.lowercased())", accessKey: accessKey,
      secretKey: secretKey, requestTimeout: .seconds(10), connectTimeout: .seconds(2))
    return S3Storage(
      configuration: configuration, threads: 4, touchInterval: 86_400, sweepPaging: sweepPaging,
      now: now ?? { Int64(Date().timeIntervalSince1970) })
  }

  /// Deletion notices are listed to the end, however many pages they take (a follower that
  /// stopped at a few pages lost every notice past them).
  @Test func deletionNoticesAreListedThroughEveryPage() async throws {
    let storage = try Self.storage()
    let names = (10..<21).map { index in
      "00\(1_700_000_000_000 + index)-" + String(repeating: "0", count: 62) + "\(index).jpg"
    }
    for name in names { try await storage.putDeletionNotice(name) }
    let listed = try await storage.deletionNotices(after: nil, pageSize: 2)
    #expect(listed == names, "\(listed)")
    #expect(try await storage.deletionNotices(after: names[4], pageSize: 2) == Array(names[5...]))
    #expect(try await storage.deletionNotices(after: nil) == names)
  }

  @Test func meetsTheStorageContract() async throws {
    try await StorageContract.check(try Self.storage())
  }

  @Test func objectsCarryTheirContentTypeAndCacheControl() async throws {
    let storage = try Self.storage()
    let (key, bytes) = StorageContract.sample(format: .png)
    try await storage.put(key, bytes: bytes)
    let response = try await storage.send(
      storage.requests.headObject(storage.requests.objectKey(key)), "HEAD")
    #expect(response.status == 200)
    #expect(response.headers["content-type"] == "image/png")
    #expect(response.headers["cache-control"] == "public, max-age=31536000, immutable")
    #expect(storage.requests.objectKey(key).hasSuffix("/objects/\(key.fileName)"))
  }

  @Test func readyWithGoodCredentials() async throws {
    #expect(await (try Self.storage()).readinessProblem() == nil)
  }

  @Test func wrongSecretIsReportedAsRefusedCredentials() async throws {
    let storage = try Self.storage(secretKey: "not-the-secret")
    let problem = try #require(await storage.readinessProblem())
    #expect(problem.summary == "the S3 credentials were refused")
    #expect(problem.detail.contains("SignatureDoesNotMatch"))
    #expect(!problem.detail.contains("not-the-secret"))
    await #expect(throws: ArtworkError.self) {
      try await storage.put(StorageContract.sample().0, bytes: [1])
    }
  }

  @Test func unknownAccessKeyIsReportedAsRefusedCredentials() async throws {
    let problem = try #require(await (try Self.storage(accessKey: "nobody")).readinessProblem())
    #expect(problem.summary == "the S3 credentials were refused")
    #expect(problem.detail.contains("InvalidAccessKeyId"))
  }

  @Test func missingBucketIsReported() async throws {
    let storage = try Self.storage(bucket: "no-such-bucket-here")
    let problem = try #require(await storage.readinessProblem())
    #expect(problem.summary == "the S3 bucket does not exist")
    #expect(problem.detail.contains("bucket \"no-such-bucket-here\" at http://127.0.0.1:"))
    #expect(!problem.summary.contains("no-such-bucket-here"))
    // A missing bucket is an outage, never "not stored".
    let error = await #expect(throws: ArtworkError.self) {
      try await storage.get(StorageContract.sample().0)
    }
    #expect(error?.kind == .storageUnavailable)
  }

  @Test func streamsA2MBObjectInBoundedChunks() async throws {
    let storage = try Self.storage()
    let (key, bytes) = StorageContract.sample(2_000_000)
    try await storage.put(key, bytes: bytes)
    let stream = try #require(try await storage.stream(key, chunkSize: 256 << 10))
    #expect(stream.length == bytes.count)
    var received: [UInt8] = []
    var chunks = 0
    while let chunk = try await stream.next() {
      #expect(chunk.count <= 256 << 10)
      received += chunk
      chunks += 1
    }
    #expect(received == bytes)
    #expect(chunks == 8)
    #expect(try await stream.next() == nil)
  }

  @Test func streamsSmallAndMissingObjects() async throws {
    let storage = try Self.storage()
    let (key, bytes) = StorageContract.sample(10)
    #expect(try await storage.stream(key) == nil)
    try await storage.put(key, bytes: bytes)
    let stream = try #require(try await storage.stream(key))
    #expect(stream.length == 10)
    #expect(try await stream.next() == bytes)
    #expect(try await stream.next() == nil)
  }

  @Test func sweepDeletesOnlyOldObjectsAndRecordsWithinTheLimit() async throws {
    let clock = ShiftedClock()
    let storage = try Self.storage(now: clock.now)
    var keys: [ArtworkKey] = []
    for _ in 0..<3 {
      let (key, bytes) = StorageContract.sample(100)
      try await storage.put(key, bytes: bytes)
      keys.append(key)
    }
    try await storage.putRecord("https://example.com/a.jpg", bytes: [1, 2, 3])
    #expect(await storage.sweep(olderThan: .seconds(3_600), limit: 100) == 0)
    clock.shift(by: 7_200)  // two hours from now, everything is an hour past the limit
    #expect(await storage.sweep(olderThan: .seconds(3_600), limit: 2) == 2)
    #expect(await storage.sweep(olderThan: .seconds(3_600), limit: 100) == 2)
    for key in keys { #expect(try await storage.head(key) == nil) }
    #expect(try await storage.getRecord("https://example.com/a.jpg") == nil)
  }

  /// Small pages and one page per pass: passes walk the listing, resume where the last one
  /// stopped, and wrap around to the start at the end.
  @Test func sweepPassesAreBoundedAndResume() async throws {
    let clock = ShiftedClock()
    let storage = try Self.storage(
      sweepPaging: .init(pageSize: 2, pagesPerPass: 1), now: clock.now)
    for _ in 0..<5 {
      let (key, bytes) = StorageContract.sample(100)
      try await storage.put(key, bytes: bytes)
    }
    clock.shift(by: 7_200)
    var passes: [Int] = []
    for _ in 0..<4 { passes.append(await storage.sweep(olderThan: .seconds(3_600), limit: 100)) }
    #expect(passes.reduce(0, +) == 5)
    #expect(passes.allSatisfy { $0 <= 2 })
    #expect(await storage.sweep(olderThan: .seconds(3_600), limit: 100) == 0)
  }

  @Test func readingAStaleObjectRestampsItForRetention() async throws {
    let clock = ShiftedClock()
    let storage = try Self.storage(now: clock.now)
    let (key, bytes) = StorageContract.sample(100)
    try await storage.put(key, bytes: bytes)
    let name = storage.requests.objectKey(key)
    let fresh = try await storage.send(storage.requests.headObject(name), "HEAD")
    #expect(fresh.headers["x-amz-meta-touched"] == nil)
    _ = try await storage.get(key)  // not stale yet: no copy
    #expect(
      try await storage.send(storage.requests.headObject(name), "HEAD").headers[
        "x-amz-meta-touched"]
        == nil)
    clock.shift(by: 2 * 86_400)
    #expect(try await storage.get(key)?.bytes == bytes)
    let touched = try await storage.send(storage.requests.headObject(name), "HEAD")
    #expect(touched.headers["x-amz-meta-touched"] != nil)
    #expect(touched.headers["content-type"] == "image/jpeg")
    #expect(touched.headers["cache-control"] == "public, max-age=31536000, immutable")
    #expect(try await storage.get(key)?.bytes == bytes)
  }

  /// The store goes away mid-run: writes fail as `.storageUnavailable` with `retryAfter`, reads
  /// fail cleanly, and once it is back both work with every acknowledged write still there.
  @Test func survivesTheStoreGoingAwayAndComingBack() async throws {
    let server = try SeaweedFSScope.server
    let storage = try Self.storage()
    let (kept, keptBytes) = StorageContract.sample(50_000)
    try await storage.put(kept, bytes: keptBytes)
    try await storage.putRecord("kept", bytes: [7])
    let (streamed, streamedBytes) = StorageContract.sample(600_000)
    try await storage.put(streamed, bytes: streamedBytes)
    let stream = try #require(try await storage.stream(streamed, chunkSize: 256 << 10))
    #expect(try await stream.next()?.count == 256 << 10)

    await server.stop()
    // A stream cut off mid-way fails (the HTTP layer then aborts the response), never hangs.
    let streamError = await #expect(throws: ArtworkError.self) { try await stream.next() }
    #expect(streamError?.kind == .storageUnavailable)
    let (lost, lostBytes) = StorageContract.sample(50_000)
    let putError = await #expect(throws: ArtworkError.self) {
      try await storage.put(lost, bytes: lostBytes)
    }
    #expect(putError?.kind == .storageUnavailable)
    #expect(putError?.retryAfter == 5)
    let getError = await #expect(throws: ArtworkError.self) { try await storage.get(kept) }
    #expect(getError?.kind == .storageUnavailable)
    await #expect(throws: ArtworkError.self) { try await storage.head(kept) }
    await #expect(throws: ArtworkError.self) { try await storage.getRecord("kept") }
    await #expect(throws: ArtworkError.self) { try await storage.stream(kept) }
    let problem = try #require(await storage.readinessProblem())
    #expect(problem.summary == "the S3 endpoint cannot be reached")
    #expect(problem.detail.contains("127.0.0.1"))

    try await server.restart()
    let recovered = await storage.readinessProblem()
    #expect(recovered == nil, "\(recovered?.detail ?? "")")
    #expect(try await storage.get(kept)?.bytes == keptBytes)
    #expect(try await storage.get(streamed)?.bytes == streamedBytes)
    #expect(try await storage.getRecord("kept") == [7])
    #expect(try await storage.get(lost) == nil)
    try await storage.put(lost, bytes: lostBytes)
    #expect(try await storage.get(lost)?.bytes == lostBytes)
  }
}

/// Wall-clock time moved forward on demand, to age stored objects without waiting.
final class ShiftedClock: Sendable {
  private let offset = Mutex<Int64>(0)

  func shift(by seconds: Int64) { offset.withLock { $0 += seconds } }

  @Sendable func now() -> Int64 { Int64(Date().timeIntervalSince1970) + offset.withLock { $0 } }
}
