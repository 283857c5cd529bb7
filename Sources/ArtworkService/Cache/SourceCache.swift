import ArtworkCore
import Storage
import Synchronization

/// Validators of a previous response, sent to revalidate it (`If-None-Match`, `If-Modified-Since`).
struct Validators: Sendable, Equatable {
  var etag: String?
  var lastModified: String?
}

/// What producing a result for a URL gave: a fresh result, or the origin's word that the
/// previous one still holds.
enum Produced<Payload: Sendable>: Sendable {
  case fresh(Payload, Validators)
  case notModified(Validators)
}

/// The per-URL result cache: a repeat within the TTL answers without fetching; after the TTL the
/// origin is asked with validators; failures are remembered briefly; concurrent identical
/// requests share one run. Records live in storage (restarts, replicas) with a small in-memory
/// copy in front.
final class SourceCache<Payload: Codable & Sendable & Equatable>: Sendable {
  typealias Record = SourceCacheRecord<Payload>

  /// A result, and whether it came from the cache without asking the origin.
  struct Lookup: Sendable {
    var payload: Payload
    var hit: Bool
  }

  private let storage: any ArtworkStorage
  private let namespace: String
  private let ttl: Double
  private let failureTTL: Double
  private let clock: @Sendable () -> Double
  private let coalescer = Coalescer<Lookup>()
  private let memory = Mutex<[String: Record]>([:])
  private static var memoryLimit: Int { 4096 }

  /// - Parameters:
  ///   - namespace: separates kinds of results (`artwork`, `thumbhash`) in one storage.
  ///   - clock: seconds since 1970; injected so tests can move time.
  init(
    storage: any ArtworkStorage, namespace: String, ttl: Double, failureTTL: Double,
    clock: @escaping @Sendable () -> Double
  ) {
    self.storage = storage
    self.namespace = namespace
    self.ttl = ttl
    self.failureTTL = failureTTL
    self.clock = clock
  }

  /// Failures worth remembering: the origin's or the image's fault, not ours or a passing load.
  static func isCacheable(_ error: ArtworkError) -> Bool {
    switch error.kind {
    case .badRequest, .forbiddenAddress, .payloadTooLarge, .unsupportedMediaType,
      .unprocessableImage, .badGateway, .gatewayTimeout:
      true
    default: false
    }
  }

  /// The result for `url` under `variant` (the canonical options), from the cache when fresh.
  ///
  /// `produce` fetches (conditionally, when given validators) and processes; `isUsable` tells
  /// whether a cached payload can still be answered (its stored object exists).
  func value(
    url: String, variant: String,
    isUsable: @escaping @Sendable (Payload) async -> Bool,
    produce: @escaping @Sendable (Validators?) async throws(ArtworkError) -> Produced<Payload>
  ) async throws(ArtworkError) -> Lookup {
    if let answer = try remembered(url: url, variant: variant) {
      return Lookup(payload: answer, hit: true)
    }
    let key = self.key(url: url, variant: variant)
    return try await coalescer.run(key) { () throws(ArtworkError) -> Lookup in
      let now = self.clock()
      let stored = try await self.load(key)
      if let stored,
        let answer = try Self.fresh(stored, now: now, ttl: self.ttl, failureTTL: self.failureTTL)
      {
        self.remember(key, stored)
        return Lookup(payload: answer, hit: true)
      }
      var previous = stored?.payload
      if let candidate = previous, !(await isUsable(candidate)) { previous = nil }
      let validators = previous.map { _ in
        Validators(etag: stored?.etag, lastModified: stored?.lastModified)
      }
      do throws(ArtworkError) {
        switch try await produce(validators) {
        case .fresh(let payload, let validators):
          try await self.save(
            key,
            Record(
              url: url, payload: payload, etag: validators.etag,
              lastModified: validators.lastModified, checkedAt: now))
          return Lookup(payload: payload, hit: false)
        case .notModified(let validators):
          guard let previous, let stored else {
            throw ArtworkError(
              .badGateway, "The origin answered 304 Not Modified to an unconditional request.")
          }
          var record = stored
          record.checkedAt = now
          record.etag = validators.etag ?? stored.etag
          record.lastModified = validators.lastModified ?? stored.lastModified
          try await self.save(key, record)
          return Lookup(payload: previous, hit: false)
        }
      } catch {
        // A source that is down or slow keeps its last good result: relays keep working. The
        // origin is asked again after the failure TTL, not on every request meanwhile.
        if let previous, let stored, error.kind == .badGateway || error.kind == .gatewayTimeout {
          var record = stored
          record.checkedAt = now - max(0, self.ttl - self.failureTTL)
          try? await self.save(key, record)
          return Lookup(payload: previous, hit: false)
        }
        if Self.isCacheable(error) {
          let failure = Record.Failure(kind: error.kind.rawValue, detail: error.detail)
          try? await self.save(key, Record(url: url, failure: failure, checkedAt: now))
        }
        throw error
      }
    }
  }

  /// The fresh result for `url` under `variant` if memory holds one, without waiting on
  /// anything: nil when it must be looked up in storage or produced; a fresh failure is thrown.
  func remembered(url: String, variant: String) throws(ArtworkError) -> Payload? {
    let key = self.key(url: url, variant: variant)
    guard let record = memory.withLock({ $0[key] }) else { return nil }
    return try Self.fresh(record, now: clock(), ttl: ttl, failureTTL: failureTTL)
  }

  private func key(url: String, variant: String) -> String { "\(namespace)|\(variant)|\(url)" }

  /// The answer a record gives at `now`: its payload while fresh, its failure (thrown) while
  /// that is fresh, nil when it must be produced again.
  private static func fresh(_ record: Record, now: Double, ttl: Double, failureTTL: Double)
    throws(ArtworkError) -> Payload?
  {
    let age = now - record.checkedAt
    if let failure = record.failure {
      guard age >= 0, age < failureTTL else { return nil }
      throw ArtworkError(ArtworkError.Kind(rawValue: failure.kind) ?? .badGateway, failure.detail)
    }
    guard let payload = record.payload, age >= 0, age < ttl else { return nil }
    return payload
  }

  private func recordName(_ key: String) -> String { "source-cache/\(SHA256.hex(Array(key.utf8)))" }

  private func load(_ key: String) async throws(ArtworkError) -> Record? {
    if let record = memory.withLock({ $0[key] }) { return record }
    guard let bytes = try await storage.getRecord(recordName(key)) else { return nil }
    return Record(json: bytes)
  }

  private func save(_ key: String, _ record: Record) async throws(ArtworkError) {
    try await storage.putRecord(recordName(key), bytes: record.json)
    remember(key, record)
  }

  private func remember(_ key: String, _ record: Record) {
    memory.withLock { memory in
      // NOTE: a crude bound: when full, start over. Records are in storage anyway.
      if memory.count >= Self.memoryLimit { memory.removeAll(keepingCapacity: true) }
      memory[key] = record
    }
  }
}
