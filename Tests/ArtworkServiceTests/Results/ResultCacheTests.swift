import Foundation
import Synchronization
import Testing

@testable import ArtworkCore
@testable import ArtworkService
@testable import SafeFetch
@testable import Storage

/// What a lookup through the cache gave: the payload, and whether the cache answered it.
private struct Lookup: Sendable {
  var payload: String
  var hit: Bool
}

/// What producing a result gave the test's fake origin: a fresh result, or "not modified".
private enum Produced: Sendable {
  case fresh(String, Validators)
  case notModified(Validators)
}

/// A clock the test moves by hand, and a producer that counts its calls and answers what the
/// test tells it to. `lookup` drives the cache the way the routes do: `begin`, then produce
/// and report through the lease.
private final class Harness: Sendable {
  let time = Mutex<Double>(1_000_000)
  let calls = Mutex<[Validators?]>([])
  let next = Mutex<Result<Produced, ArtworkError>>(
    .success(.fresh("v1", Validators(etag: "\"1\"", lastModified: nil))))
  let directory =
    FileManager.default.temporaryDirectory.path
    + "/artwork-cache-\(UInt64.random(in: 0...UInt64.max))"

  /// The storage the last cache opened: a new cache releases it first, as a restarted server
  /// does (one process owns a storage directory).
  let opened = Mutex<FileSystemStorage?>(nil)

  func cache(ttl: Double = 600, failureTTL: Double = 30, ids: ResultID = .random()) throws
    -> ResultCache<String>
  {
    opened.withLock { $0?.release() }
    let storage = try FileSystemStorage(directory: directory)
    opened.withLock { $0 = storage }
    return ResultCache(
      storage: storage, namespace: "test", ttl: ttl, failureTTL: failureTTL, ids: ids,
      clock: { [self] in time.withLock { $0 } })
  }

  func advance(_ seconds: Double) { time.withLock { $0 += seconds } }

  func lookup(_ cache: ResultCache<String>, url: String = "https://example.org/a.jpg")
    async throws(ArtworkError) -> Lookup
  {
    let lease: ResultCache<String>.Lease
    switch try await cache.begin(url: url, variant: "v") {
    case .answer(let payload, let age): return Lookup(payload: payload, hit: age != nil)
    case .produce(let started): lease = started
    }
    do throws(ArtworkError) {
      calls.withLock { $0.append(lease.validators) }
      // Long enough for concurrent callers to pile up behind the first.
      try? await Task.sleep(for: .milliseconds(50))
      switch try next.withLock({ $0 }).get() {
      case .fresh(let payload, let validators):
        return Lookup(
          payload: try await lease.produced(payload, validators: validators), hit: false)
      case .notModified(let validators):
        return Lookup(payload: try await lease.confirmed(validators), hit: false)
      }
    } catch {
      return Lookup(payload: try await lease.failed(error), hit: false)
    }
  }

  var callCount: Int { calls.withLock { $0.count } }

  deinit { try? FileManager.default.removeItem(atPath: directory) }
}

@Suite struct ResultCacheTests {
  @Test func repeatWithinTTLDoesNotProduce() async throws {
    let harness = Harness()
    let cache = try harness.cache()
    let first = try await harness.lookup(cache)
    #expect(first.payload == "v1" && !first.hit)
    harness.advance(599)
    let second = try await harness.lookup(cache)
    #expect(second.payload == "v1" && second.hit)
    #expect(harness.callCount == 1)
  }

  @Test func afterTTLRevalidatesWithValidators() async throws {
    let harness = Harness()
    let cache = try harness.cache()
    _ = try await harness.lookup(cache)
    harness.advance(601)
    harness.next.withLock { $0 = .success(.notModified(Validators(etag: "\"1\""))) }
    let revalidated = try await harness.lookup(cache)
    #expect(revalidated.payload == "v1" && !revalidated.hit)
    #expect(harness.calls.withLock { $0.last } == Validators(etag: "\"1\"", lastModified: nil))
    // Confirmed: fresh again for a whole TTL.
    harness.advance(300)
    #expect(try await harness.lookup(cache).hit)
    harness.advance(400)
    harness.next.withLock {
      $0 = .success(.fresh("v2", Validators(etag: "\"2\"", lastModified: nil)))
    }
    #expect(try await harness.lookup(cache).payload == "v2")
    #expect(harness.callCount == 3)
  }

  @Test func failuresAreRememberedForTheFailureTTL() async throws {
    let harness = Harness()
    let cache = try harness.cache()
    harness.next.withLock {
      $0 = .failure(ArtworkError(.unsupportedMediaType, "The source answered text/html."))
    }
    var ages: [Int?] = []
    for _ in 0..<3 {
      harness.advance(5)
      do throws(ArtworkError) {
        _ = try await harness.lookup(cache)
        Issue.record("a remembered failure was not thrown")
      } catch {
        #expect(error.kind == .unsupportedMediaType)
        #expect(error.detail == "The source answered text/html.")
        ages.append(error.age)
      }
    }
    // The first is the failure itself; the next two are remembered, and say how old they are.
    #expect(ages == [nil, 5, 10])
    #expect(harness.callCount == 1)
    harness.advance(-10)
    harness.advance(31)
    harness.next.withLock { $0 = .success(.fresh("v1", Validators())) }
    #expect(try await harness.lookup(cache).payload == "v1")
    #expect(harness.callCount == 2)
  }

  @Test func passingFailuresAreNotRemembered() async throws {
    let harness = Harness()
    let cache = try harness.cache()
    harness.next.withLock { $0 = .failure(ArtworkError(.busy, "busy", retryAfter: 1)) }
    _ = try? await harness.lookup(cache)
    _ = try? await harness.lookup(cache)
    #expect(harness.callCount == 2)
  }

  @Test func anOriginThatFailsKeepsTheLastGoodResult() async throws {
    let harness = Harness()
    let cache = try harness.cache()
    _ = try await harness.lookup(cache)
    harness.advance(601)
    harness.next.withLock { $0 = .failure(ArtworkError(.badGateway, "The source answered 500.")) }
    #expect(try await harness.lookup(cache).payload == "v1")
    // Not asked again on every request while it is down: only after the failure TTL.
    harness.advance(10)
    #expect(try await harness.lookup(cache).hit)
    #expect(harness.callCount == 2)
    harness.advance(25)
    #expect(try await harness.lookup(cache).payload == "v1")
    #expect(harness.callCount == 3)
  }

  @Test func concurrentIdenticalLookupsProduceOnce() async throws {
    let harness = Harness()
    let cache = try harness.cache()
    let payloads = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<50 { group.addTask { try await harness.lookup(cache).payload } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(payloads.count == 50 && payloads.allSatisfy { $0 == "v1" })
    #expect(harness.callCount == 1)
  }

  @Test func recordsSurviveANewCacheOnTheSameStorage() async throws {
    let harness = Harness()
    _ = try await harness.lookup(try harness.cache())
    let restarted = try harness.cache()
    #expect(try await harness.lookup(restarted).hit)
    #expect(harness.callCount == 1)
  }

  /// Reads and writes of records that storage fails are counted (`storageFailures`, which
  /// `artwork_result_cache_failures_total` shows): the records folder made a file.
  @Test func storageFailuresAreCounted() async throws {
    let harness = Harness()
    let cache = try harness.cache()
    _ = try await harness.lookup(cache)
    #expect(cache.storageFailures == (0, 0))
    let records = harness.directory + "/records"
    try FileManager.default.removeItem(atPath: records)
    #expect(FileManager.default.createFile(atPath: records, contents: Data("x".utf8)))
    // Past the TTL the result is produced again, and its record cannot be written.
    harness.advance(601)
    _ = try? await harness.lookup(cache)
    #expect(cache.storageFailures.writes == 1)
    // A URL memory does not hold is read from storage, which fails.
    _ = try? await harness.lookup(cache, url: "https://example.org/b.jpg")
    #expect(cache.storageFailures.reads == 1)
  }

  @Test func differentURLsAreDifferentEntries() async throws {
    let harness = Harness()
    let cache = try harness.cache()
    _ = try await harness.lookup(cache, url: "https://example.org/a.jpg")
    _ = try await harness.lookup(cache, url: "https://example.org/b.jpg")
    #expect(harness.callCount == 2)
  }

  /// A damaged record from storage (a time far from now, either way) answers with an age in
  /// bounds, never traps converting it.
  @Test func aRecordsTimeFromStorageIsReadWithinBounds() async throws {
    let harness = Harness()
    let cache = try harness.cache()
    let storage = try #require(harness.opened.withLock { $0 })
    let url = "https://example.org/damaged.jpg"
    let id = cache.resultID(url: url, variant: "v", caller: "relay")
    for checkedAt in [-1e300, 1e300, -Double.greatestFiniteMagnitude] {
      let record = ResultRecord<String>(
        url: url, payload: "old", checkedAt: checkedAt, configuration: cache.configuration)
      try await storage.putRecord(cache.recordName(url: url, variant: "v"), bytes: record.json)
      switch try await cache.known(id: id, caller: "relay") {
      case .ready(let payload, _, let age):
        #expect(payload == "old")
        #expect((0...1_000_000_000).contains(age))
      default: Issue.record("the last result was not answered")
      }
    }
  }

  /// A result's id answers only the caller it was made for: another caller's id for the same
  /// URL differs, and each is unknown to the other caller, like an id never given or tampered
  /// with. Ids made under a random key are this process's own; a key derived from a shared
  /// secret gives the same ids in another process (a replica, a restart).
  @Test func anIdIsBoundToItsCallerAndKey() async throws {
    let harness = Harness()
    let shared = Array("a-shared-cache-key".utf8)
    let cache = try harness.cache(ids: .derived(from: shared))
    let url = "https://example.org/bound.jpg"
    _ = try await harness.lookup(cache, url: url)
    let relay = cache.resultID(url: url, variant: "v", caller: "relay")
    let plex = cache.resultID(url: url, variant: "v", caller: "plex")
    #expect(relay != plex && relay.utf8.count == 96)
    #expect(relay.hasPrefix(cache.recordName(url: url, variant: "v").dropFirst(13)))
    func known(_ cache: ResultCache<String>, _ id: String, _ caller: String) async throws -> String
    {
      switch try await cache.known(id: id, caller: caller) {
      case .ready(let payload, _, _): payload
      case .running: "running"
      case .unknown: "unknown"
      }
    }
    #expect(try await known(cache, relay, "relay") == "v1")
    #expect(try await known(cache, plex, "plex") == "v1")
    #expect(try await known(cache, relay, "plex") == "unknown")
    #expect(try await known(cache, plex, "relay") == "unknown")
    let flipped = String(relay.dropLast()) + (relay.hasSuffix("0") ? "1" : "0")
    for id in [flipped, String(relay.prefix(64)), relay.uppercased(), relay + "0", ""] {
      #expect(try await known(cache, id, "relay") == "unknown", "\(id)")
    }
    // Another key: other ids, and this one is unknown there; the shared key: the same.
    let other = try harness.cache(ids: .random())
    #expect(other.resultID(url: url, variant: "v", caller: "relay") != relay)
    #expect(try await known(other, relay, "relay") == "unknown")
    let replica = try harness.cache(ids: .derived(from: shared))
    #expect(replica.resultID(url: url, variant: "v", caller: "relay") == relay)
    #expect(try await known(replica, relay, "relay") == "v1")
  }

  /// While the work runs, its id says so to its caller only.
  @Test func aRunningResultIsKnownToItsCallerOnly() async throws {
    let harness = Harness()
    let cache = try harness.cache()
    let url = "https://example.org/running.jpg"
    guard case .produce(let lease) = try await cache.begin(url: url, variant: "v") else {
      Issue.record("no lease")
      return
    }
    let id = cache.resultID(url: url, variant: "v", caller: "relay")
    guard case .running = try await cache.known(id: id, caller: "relay") else {
      Issue.record("not running for its caller")
      return
    }
    guard case .unknown = try await cache.known(id: id, caller: "plex") else {
      Issue.record("running for another caller")
      return
    }
    _ = try await lease.produced("v1", validators: Validators())
  }
}
