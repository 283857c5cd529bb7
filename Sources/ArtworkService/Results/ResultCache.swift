import ArtworkCore
import SafeFetch
import Storage
import Synchronization

/// The per-URL result store: what a source URL processed one way gave (or how it failed), with
/// the origin's validators. A repeat within the TTL is answered from it without fetching; after
/// the TTL the caller revalidates with the validators; a failure is remembered for the failure
/// TTL; concurrent identical requests share one run. Records live in storage (they survive
/// restarts and are shared by replicas) with a small in-memory copy in front.
///
/// What it answers is true now: a refusal by policy (a private address, a scheme) is never
/// remembered but decided again on every request; a record made under other settings is not
/// answered; a caller may ask for the origin to be asked again (`revalidate`); and every answer
/// from a record says how old it is.
///
/// It never calls back into its caller: `begin` answers either a result or a `Lease`, the
/// caller does the work (fetch, render, store) and reports through the lease, and everyone who
/// asked for the same key meanwhile gets that report.
final class ResultCache<Payload: Codable & Sendable & Equatable>: Sendable {
  typealias Record = ResultRecord<Payload>

  /// What `begin` found.
  enum Start: Sendable {
    /// A result, and its age in seconds when it came from a record (nil: another request just
    /// produced it).
    case answer(Payload, age: Int?)
    /// Nothing fresh: the caller produces the result and reports it through the lease.
    case produce(Lease)
  }

  /// The right, and duty, to produce the result for one key. Report exactly once: `produced`,
  /// `confirmed` (the origin answered 304) or `failed`.
  final class Lease: Sendable {
    let key: String
    let url: String
    /// The last result, when there is one to revalidate (its record is past the TTL).
    var previous: Payload? { last.withLock { $0?.payload } }
    /// The validators to revalidate `previous` with.
    var validators: Validators? { last.withLock { $0?.validators } }
    /// The last result and its validators, until `discardPrevious`.
    private let last: Mutex<(payload: Payload, validators: Validators)?>
    fileprivate let record: Record?
    fileprivate let cache: ResultCache
    fileprivate let now: Double
    private let reported = Atomic(false)

    fileprivate init(
      key: String, url: String, record: Record?, previous: Payload?, cache: ResultCache,
      now: Double
    ) {
      self.key = key
      self.url = url
      self.record = record
      self.last = Mutex(
        previous.map { ($0, record?.validators ?? Validators()) })
      self.cache = cache
      self.now = now
    }

    deinit {
      // A lease dropped without a report must not leave its waiters waiting forever.
      if !reported.load(ordering: .acquiring) {
        cache.finish(
          key,
          .failure(ArtworkError(.internal, "The request stopped.", internalDetail: "lease dropped"))
        )
      }
    }

    /// The last result can no longer be answered (its image is gone): produce from scratch, and
    /// do not fall back on it.
    func discardPrevious() {
      last.withLock { $0 = nil }
    }

    /// A fresh result: stored, remembered, and handed to everyone waiting.
    func produced(_ payload: Payload, validators: Validators) async throws(ArtworkError) -> Payload
    {
      let record = Record(
        url: url, payload: payload, validators: validators, checkedAt: now,
        configuration: cache.configuration)
      do throws(ArtworkError) {
        try await cache.save(key, record)
      } catch {
        report(.failure(error))
        throw error
      }
      report(.success(payload))
      return payload
    }

    /// The origin confirmed `previous` (304): fresh again for a whole TTL.
    func confirmed(_ validators: Validators) async throws(ArtworkError) -> Payload {
      guard let previous, var record else {
        let error = ArtworkError(
          .badGateway, "The origin answered 304 Not Modified to an unconditional request.")
        return try await failed(error)
      }
      record.checkedAt = now
      record.validators = record.validators.updated(by: validators)
      do throws(ArtworkError) {
        try await cache.save(key, record)
      } catch {
        report(.failure(error))
        throw error
      }
      report(.success(previous))
      return previous
    }

    /// Producing failed. An origin that is down or slow keeps its last good result (relays keep
    /// working), and is asked again only after the failure TTL; a failure that is the origin's
    /// or the image's fault is remembered for the failure TTL; anything else is thrown as is.
    func failed(_ failure: ArtworkError) async throws(ArtworkError) -> Payload {
      // The request producing it was cancelled (its handler's deadline passed, and the HTTP
      // server cancels its task): nothing was learned of the origin or the image. Nothing is
      // remembered, and a request waiting for the result produces it instead.
      if Task.isCancelled {
        if !reported.exchange(true, ordering: .acquiringAndReleasing) { cache.handOver(key) }
        throw failure
      }
      var error = failure
      // The origin will be asked again once the failure TTL has passed: say so.
      if error.kind == .badGateway || error.kind == .gatewayTimeout, error.retryAfter == nil {
        error.retryAfter = max(1, Int(cache.failureTTL.rounded(.up)))
      }
      if let previous, var record, error.kind == .badGateway || error.kind == .gatewayTimeout {
        record.checkedAt = now - max(0, cache.ttl - cache.failureTTL)
        try? await cache.save(key, record)
        report(.success(previous))
        return previous
      }
      if ResultCache.isCacheable(error) {
        let failure = Record.Failure(
          kind: error.kind.rawValue, detail: error.detail,
          members: error.members.isEmpty ? nil : error.members)
        let record = Record(
          url: url, failure: failure, checkedAt: now, configuration: cache.configuration)
        try? await cache.save(key, record)
      }
      report(.failure(error))
      throw error
    }

    private func report(_ result: Result<Payload, ArtworkError>) {
      guard !reported.exchange(true, ordering: .acquiringAndReleasing) else { return }
      cache.finish(key, result)
    }
  }

  let ttl: Double
  let failureTTL: Double
  /// The fingerprint of the settings results are made under (`ServiceConfig.resultSettings`).
  let configuration: String
  private let storage: any ArtworkStorage
  private let namespace: String
  /// Names records by a keyed hash of the URL and options, so that storage never holds a URL's
  /// secrets, not even as a plain hash that a guess could be checked against.
  private let recordKey: [UInt8]
  /// The secret query parameters, redacted from the URL a record keeps for people to read.
  private let secrets: SecretParameters
  /// Makes and reads the ids results are known by outside, each bound to its caller.
  private let ids: ResultID
  private let clock: @Sendable () -> Double
  private let memory = Mutex<[String: Record]>([:])
  /// Record reads and writes storage failed (`storageFailures`).
  private let failures = Mutex<(reads: Int, writes: Int)>((0, 0))
  /// Keys being produced, with the requests waiting for them.
  private let running = Mutex<
    [String: [CheckedContinuation<Result<Payload, ArtworkError>?, Never>]]
  >([:])
  private static var memoryLimit: Int { 4096 }

  /// - Parameters:
  ///   - namespace: separates kinds of results (`artwork`, `thumbhash`) in one storage.
  ///   - clock: seconds since 1970; injected so tests can move time.
  ///   - recordKey: the key of the hash that names records (`ARTWORK_CACHE_KEY`).
  ///   - secrets: the query parameters redacted from the URL each record keeps.
  ///   - ids: the key of the ids results are known by outside (`ResultID`).
  ///   - configuration: the fingerprint of the settings results are made under; records of
  ///     another are not answered.
  init(
    storage: any ArtworkStorage, namespace: String, ttl: Double, failureTTL: Double,
    recordKey: [UInt8] = ServiceConfig.defaultCacheKey, secrets: SecretParameters = .init(),
    ids: ResultID = .random(), configuration: String = "",
    clock: @escaping @Sendable () -> Double
  ) {
    self.ids = ids
    self.configuration = configuration
    self.storage = storage
    self.namespace = namespace
    self.recordKey = recordKey
    self.secrets = secrets
    self.ttl = ttl
    self.failureTTL = failureTTL
    self.clock = clock
  }

  /// Failures worth remembering: the origin's or the image's fault, not ours or a passing load.
  /// A refusal by policy (a private address, a scheme, user info: `forbidden-address`,
  /// `bad-request`) is not: it costs nothing to decide again, and the policy may have changed.
  static func isCacheable(_ error: ArtworkError) -> Bool {
    isCacheable(error.kind)
  }

  static func isCacheable(_ kind: ArtworkError.Kind) -> Bool {
    switch kind {
    case .payloadTooLarge, .unsupportedMediaType, .unprocessableImage, .sourceNotAvailable,
      .badGateway, .gatewayTimeout:
      true
    default: false
    }
  }

  /// The result for `url` under `variant` (the canonical options): fresh from the cache, or
  /// the one another request is producing now, or a lease to produce it. A remembered failure
  /// is thrown. With `revalidate` (the caller's `Cache-Control: no-cache`) a fresh record is
  /// not answered: the origin is asked again, conditionally when there is a result.
  func begin(url: String, variant: String, revalidate: Bool = false) async throws(ArtworkError)
    -> Start
  {
    if !revalidate, let (answer, age) = try remembered(url: url, variant: variant) {
      return .answer(answer, age: age)
    }
    let key = self.key(url: url, variant: variant)
    let joined: Result<Payload, ArtworkError>? = await withCheckedContinuation { continuation in
      let first = running.withLock { running -> Bool in
        if running[key] != nil {
          running[key]?.append(continuation)
          return false
        }
        running[key] = []
        return true
      }
      if first { continuation.resume(returning: nil) }
    }
    if let joined { return .answer(try joined.get(), age: nil) }
    let now = clock()
    let stored: Record?
    do throws(ArtworkError) {
      stored = try await load(key)
      if !revalidate, let stored, let answer = try fresh(stored, now: now) {
        remember(key, stored)
        finish(key, .success(answer))
        return .answer(answer, age: Self.age(of: stored, now: now))
      }
    } catch {
      finish(key, .failure(error))
      throw error
    }
    // A record of other settings is not even revalidated: its result is made again.
    let usable = stored?.configuration == configuration ? stored : nil
    return .produce(
      Lease(key: key, url: url, record: usable, previous: usable?.payload, cache: self, now: now))
  }

  /// The fresh result for `url` under `variant` and its age in seconds, if memory holds one,
  /// without waiting on anything: nil when it must be looked up in storage or produced; a fresh
  /// failure is thrown.
  func remembered(url: String, variant: String) throws(ArtworkError) -> (Payload, age: Int)? {
    let key = self.key(url: url, variant: variant)
    guard let record = memory.withLock({ $0[key] }) else { return nil }
    let now = clock()
    guard let payload = try fresh(record, now: now) else { return nil }
    return (payload, Self.age(of: record, now: now))
  }

  /// The last result for `url` under `variant`, however old, when one was made under these
  /// settings: what a relay that cannot wait gets while the origin is asked again.
  func lastKnown(url: String, variant: String) async -> Payload? {
    let key = self.key(url: url, variant: variant)
    guard let record = try? await load(key), record.configuration == configuration else {
      return nil
    }
    return record.payload
  }

  /// The name a result is known by outside (the `Location` of a `POST /v1/artwork` that did not
  /// finish within its wait), for `caller` only (`ResultID`): it tells nothing of the URL, and
  /// cannot be made without the service's key.
  func resultID(url: String, variant: String, caller: String) -> String {
    ids.make(record: recordID(key(url: url, variant: variant)), caller: caller)
  }

  /// What is known of the result named `id` (`resultID`).
  enum Known: Sendable {
    /// Its last result, the URL it came from (redacted) and its age.
    case ready(Payload, url: String, age: Int)
    /// It is being made, here.
    case running
    /// Not known here: never asked, forgotten, or being made by another replica.
    case unknown
  }

  /// The result named `id` when `caller` is the caller it was made for (else `.unknown`, as
  /// for an id never given): its record when fresh (a remembered failure is thrown), else
  /// `.running` while this process makes it, else its last result, else `.unknown`.
  func known(id: String, caller: String) async throws(ArtworkError) -> Known {
    guard let name = ids.record(of: id, caller: caller) else { return .unknown }
    let now = clock()
    let record = (try? await storage.getRecord("source-cache/\(name)")).flatMap { $0 }
      .flatMap { Record(json: $0) }
    if let record, let payload = try fresh(record, now: now) {
      return .ready(payload, url: record.url, age: Self.age(of: record, now: now))
    }
    let keys = running.withLock { Array($0.keys) }
    if keys.contains(where: { recordID($0) == name }) { return .running }
    if let record, record.configuration == configuration, let payload = record.payload {
      return .ready(payload, url: record.url, age: Self.age(of: record, now: now))
    }
    return .unknown
  }

  /// The keyed hash a result's record is named by (64 hex digits).
  private func recordID(_ key: String) -> String {
    SHA256.hmacHex(key: recordKey, Array(key.utf8))
  }

  /// The storage name of the record for `url` under `variant` (a deleted image's results are
  /// found by these names: `ImageIndex`).
  func recordName(url: String, variant: String) -> String {
    recordName(key(url: url, variant: variant))
  }

  /// Forgets the result for `url` under `variant`, in memory and in storage (its image was
  /// deleted): the next request produces it again.
  func forget(url: String, variant: String) async throws(ArtworkError) {
    let key = self.key(url: url, variant: variant)
    _ = memory.withLock { $0.removeValue(forKey: key) }
    try await storage.deleteRecord(recordName(key))
  }

  /// Forgets, in memory only, every result whose payload `matches` (an image deleted here or
  /// by another replica; storage's records are removed by whoever deleted it). Answers how many.
  @discardableResult
  func forgetRemembered(where matches: (Payload) -> Bool) -> Int {
    memory.withLock { memory in
      let keys = memory.compactMap { key, record in
        record.payload.map(matches) == true ? key : nil
      }
      for key in keys { memory[key] = nil }
      return keys.count
    }
  }

  /// The producer of `key` stopped without a result (its request was cancelled): the first
  /// request waiting for it is answered a lease of its own by `begin`, or the run ends.
  fileprivate func handOver(_ key: String) {
    let next = running.withLock {
      running -> CheckedContinuation<Result<Payload, ArtworkError>?, Never>? in
      guard var waiters = running[key], !waiters.isEmpty else {
        running[key] = nil
        return nil
      }
      let first = waiters.removeFirst()
      running[key] = waiters
      return first
    }
    next?.resume(returning: nil)
  }

  /// Hands `result` to every request waiting for `key` and ends its run.
  fileprivate func finish(_ key: String, _ result: Result<Payload, ArtworkError>) {
    let waiters = running.withLock { $0.removeValue(forKey: key) } ?? []
    for waiter in waiters { waiter.resume(returning: .some(result)) }
  }

  private func key(url: String, variant: String) -> String { "\(namespace)|\(variant)|\(url)" }

  /// Whole seconds since the origin last answered for `record` (the `Age` header).
  /// A record's time comes from storage: one that is not finite or is far off is read as a
  /// boundary, never converted as it is.
  private static func age(of record: Record, now: Double) -> Int {
    let seconds = (now - record.checkedAt).rounded(.down)
    guard seconds.isFinite, seconds > 0 else { return 0 }
    return seconds < 1e9 ? Int(seconds) : 1_000_000_000
  }

  /// The answer a record gives at `now`: its payload while fresh, its failure (thrown, with
  /// its age) while that is fresh, nil when it must be produced again. A record made under
  /// other settings, or a failure of a kind no longer remembered, gives nothing.
  private func fresh(_ record: Record, now: Double) throws(ArtworkError) -> Payload? {
    guard record.configuration == configuration else { return nil }
    let age = now - record.checkedAt
    if let failure = record.failure {
      guard age >= 0, age < failureTTL,
        let kind = ArtworkError.Kind(rawValue: failure.kind), Self.isCacheable(kind)
      else { return nil }
      var error = ArtworkError(kind, failure.detail, members: failure.members ?? [])
      error.age = Self.age(of: record, now: now)
      if kind == .badGateway || kind == .gatewayTimeout {
        error.retryAfter = max(1, Int((failureTTL - age).rounded(.up)))
      }
      throw error
    }
    guard let payload = record.payload, age >= 0, age < ttl else { return nil }
    return payload
  }

  private func recordName(_ key: String) -> String { "source-cache/\(recordID(key))" }

  private func load(_ key: String) async throws(ArtworkError) -> Record? {
    if let record = memory.withLock({ $0[key] }) { return record }
    let bytes: [UInt8]?
    do throws(ArtworkError) {
      bytes = try await storage.getRecord(recordName(key))
    } catch {
      failures.withLock { $0.reads += 1 }
      throw error
    }
    return bytes.flatMap { Record(json: $0) }
  }

  fileprivate func save(_ key: String, _ record: Record) async throws(ArtworkError) {
    var stored = record
    stored.url = secrets.redacted(record.url)
    do throws(ArtworkError) {
      try await storage.putRecord(recordName(key), bytes: stored.json)
    } catch {
      failures.withLock { $0.writes += 1 }
      throw error
    }
    remember(key, stored)
  }

  /// Reads and writes of records that storage failed since start-up (read at each scrape:
  /// `artwork_result_cache_failures_total`).
  var storageFailures: (reads: Int, writes: Int) { failures.withLock { $0 } }

  private func remember(_ key: String, _ record: Record) {
    memory.withLock { memory in
      // NOTE: a crude bound: when full, start over. Records are in storage anyway.
      if memory.count >= Self.memoryLimit { memory.removeAll(keepingCapacity: true) }
      memory[key] = record
    }
  }
}
