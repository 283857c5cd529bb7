import ArtworkCore
import Foundation
import Synchronization

/// Artwork in an S3-compatible object store (AWS S3, SeaweedFS, MinIO, R2...), so that any number
/// of stateless replicas behind a load balancer share one store.
///
/// - Objects: `{prefix}/objects/{id}.{ext}`, written create-only (`If-None-Match: *`; 412, the
///   object exists already, is success since the name is the content hash) with their
///   `Content-Type` and `Cache-Control: public, max-age=31536000, immutable`, so a bucket served
///   publicly or through a CDN answers exactly like the service does.
/// - Records (the per-URL result cache shared by replicas): `{prefix}/records/{sha256 of name}`,
///   overwritten.
/// - Retention ages objects by Last-Modified. A read of an object whose Last-Modified is older
///   than `touchInterval` (a day) copies it onto itself, which restamps Last-Modified: at most one
///   cheap server-side copy per object per day, and no state kept anywhere else. `sweep` deletes
///   by that date, and so would a bucket lifecycle rule (docs/S3.md).
/// - Nothing counts as stored until the store acknowledged it (2xx, or 412 on a create). Every
///   failure to reach the store is `.storageUnavailable` with `retryAfter`; nothing is sticky:
///   the next request after the store is back simply works.
public final class S3Storage: ArtworkStorage {
  let requests: S3Requests
  let client: S3Client
  /// Seconds since 1970, now. Injected by tests that age objects without waiting.
  let now: @Sendable () -> Int64
  /// An object read this long after its Last-Modified is restamped (see the type's doc).
  let touchInterval: Int64
  /// How much one `sweep` pass lists.
  let sweepPaging: SweepPaging
  /// Where the next `sweep` pass resumes, per listed prefix (nil: from the start).
  let sweepCursors = Mutex<[String: String]>([:])
  /// This replica's readiness probe key, unique so replicas never delete each other's probe.
  let probeKey: String

  /// - Parameters:
  ///   - configuration: where and how to reach the store; check `configuration.problems` first.
  ///   - threads: concurrent transfers (each keeps one connection to the store alive).
  ///   - touchInterval: how stale an object's Last-Modified may get before a read restamps it.
  ///     A day suits retentions of weeks; keep it at most a quarter of the retention, or
  ///     requested objects could age out between two restamps.
  public convenience init(
    configuration: S3Configuration, threads: Int = 4, touchInterval: Duration = .seconds(86_400)
  ) {
    self.init(
      configuration: configuration, threads: threads,
      touchInterval: max(1, touchInterval.components.seconds),
      now: { Int64(Date().timeIntervalSince1970) })
  }

  /// Bounds of one retention pass.
  struct SweepPaging: Sendable {
    /// Keys listed per page (ListObjectsV2's maximum is 1000).
    var pageSize = 1000
    /// Pages one pass may list per prefix, so a pass over a huge bucket stays bounded; the
    /// next pass resumes where this one stopped.
    var pagesPerPass = 10
  }

  init(
    configuration: S3Configuration, threads: Int, touchInterval: Int64,
    sweepPaging: SweepPaging = SweepPaging(), now: @escaping @Sendable () -> Int64
  ) {
    requests = S3Requests(configuration: configuration)
    client = S3Client(configuration: configuration, threads: threads)
    self.now = now
    self.touchInterval = touchInterval
    self.sweepPaging = sweepPaging
    probeKey = requests.probeKey(UUID().uuidString.lowercased())
  }

  // MARK: - Objects

  @discardableResult
  /// Stores `bytes` under `key` create-only (`If-None-Match: *`); answers whether it created the object.
  public func put(_ key: ArtworkKey, bytes: [UInt8]) async throws(ArtworkError) -> Bool {
    let name = requests.objectKey(key)
    let request = requests.putObject(
      name, body: bytes, contentType: key.format.contentType,
      cacheControl: ArtworkKey.cacheControl, createOnly: true)
    var response = try await send(request, "PUT \(name)")
    // NOTE: AWS answers 409 ConditionalRequestConflict while another create-only write of the
    // same key is in flight; asking again gives 412 (it won) or 200 (it failed).
    for _ in 0..<3 where response.status == 409 {
      try? await Task.sleep(for: .milliseconds(50))
      response = try await send(request, "PUT \(name)")
    }
    if response.isSuccess { return true }
    guard response.status == 412 else { throw failure(response, "PUT \(name)") }
    // Stored already (same bytes): this request counts as a use of it for retention.
    if let existing = try? await send(requests.headObject(name), "HEAD \(name)"),
      existing.isSuccess
    {
      await refreshIfStale(key, response: existing)
    }
    return false
  }

  /// The object under `key`, nil when it is not stored.
  public func get(_ key: ArtworkKey) async throws(ArtworkError) -> StoredObject? {
    let name = requests.objectKey(key)
    let response = try await send(requests.getObject(name), "GET \(name)")
    if isMissingObject(response) { return nil }
    guard response.status == 200 else { throw failure(response, "GET \(name)") }
    if let length = response.contentLength, length != response.body.count {
      throw unavailable(
        "GET \(name)", "short body: \(response.body.count) of \(length) bytes")
    }
    await refreshIfStale(key, response: response)
    return StoredObject(key: key, bytes: response.body)
  }

  /// The size of the object under `key`, nil when it is not stored.
  public func head(_ key: ArtworkKey) async throws(ArtworkError) -> Int? {
    let name = requests.objectKey(key)
    let response = try await send(requests.headObject(name), "HEAD \(name)")
    if response.status == 404 { return nil }
    guard response.status == 200, let length = response.contentLength else {
      throw failure(response, "HEAD \(name)")
    }
    await refreshIfStale(key, response: response)
    return length
  }

  // MARK: - Records

  /// Writes the record `name`, replacing any.
  public func putRecord(_ name: String, bytes: [UInt8]) async throws(ArtworkError) {
    let key = requests.recordKey(name)
    let request = requests.putObject(
      key, body: bytes, contentType: "application/octet-stream", cacheControl: nil,
      createOnly: false)
    let response = try await send(request, "PUT \(key)")
    guard response.isSuccess else { throw failure(response, "PUT \(key)") }
  }

  /// The record `name`, nil when there is none.
  public func getRecord(_ name: String) async throws(ArtworkError) -> [UInt8]? {
    let key = requests.recordKey(name)
    let response = try await send(requests.getObject(key), "GET \(key)")
    if isMissingObject(response) { return nil }
    guard response.status == 200 else { throw failure(response, "GET \(key)") }
    return response.body
  }

  // MARK: - Retention stamp

  /// Restamps an object's Last-Modified (copy onto itself) when a read finds it older than
  /// `touchInterval`. Best effort: a failure here never fails the read; the next read retries.
  func refreshIfStale(_ key: ArtworkKey, response: S3Response) async {
    guard let modified = response.lastModified, now() - modified >= touchInterval else { return }
    let name = requests.objectKey(key)
    let request = requests.copyInPlace(
      name, contentType: key.format.contentType, cacheControl: ArtworkKey.cacheControl,
      touchedAt: now())
    _ = await client.perform(request)
  }
}
