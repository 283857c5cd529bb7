import ArtworkCore

/// How the store's answers become `ArtworkError`s: one place, so every operation reports a store
/// that is down, slow or refusing us the same way.
extension S3Storage {
  /// The public sentence for every store failure; the specifics go to the log only.
  static let unavailableDetail = "The artwork store is unavailable right now; retry shortly."

  /// Sends `request`; a transport failure (unreachable, timeout, pool full) becomes
  /// `.storageUnavailable`. Any HTTP answer is returned for the caller to judge.
  ///
  /// A 500/502/503/504 answer is asked again a few times with growing pauses (about 2 s in all),
  /// as S3 clients do: stores answer `InternalError ... please try again` and `SlowDown` while
  /// they grow or rebalance (SeaweedFS does under concurrent writes). Every request here is safe
  /// to repeat: reads, overwrites of records, and create-only writes (412 once it exists).
  func send(_ request: S3Request, _ operation: String) async throws(ArtworkError) -> S3Response {
    var pause = Duration.milliseconds(150)
    for attempt in 1...Self.attempts {
      switch await client.perform(request) {
      case .success(let response):
        guard Self.isTransient(response.status), attempt < Self.attempts else { return response }
      case .failure(let failure):
        throw unavailable(operation, failure.message)
      }
      try? await Task.sleep(for: pause)
      pause *= 2
    }
    preconditionFailure("the last attempt always returns or throws")
  }

  /// Tries per request when the store answers a transient 5xx.
  static var attempts: Int { 5 }

  /// Answers that mean "the store could not do it right now; ask again".
  static func isTransient(_ status: Int) -> Bool { [500, 502, 503, 504].contains(status) }

  func unavailable(_ operation: String, _ detail: String) -> ArtworkError {
    ArtworkError(
      .storageUnavailable, Self.unavailableDetail, internalDetail: "S3 \(operation): \(detail)",
      retryAfter: 5)
  }

  /// An unexpected answer: the store refusing or failing (403, 404 without the bucket, 408,
  /// 409 conflicts that outlasted retries, 429, 5xx, redirects to another region) is
  /// `.storageUnavailable`, since an operator can fix it or it passes; anything else means we
  /// sent something wrong, `.internal`.
  func failure(_ response: S3Response, _ operation: String) -> ArtworkError {
    switch response.status {
    case 300...399, 403, 404, 408, 409, 429, 500...599:
      return unavailable(operation, response.summary)
    default:
      return ArtworkError(
        .internal, "The artwork store rejected a request.",
        internalDetail: "S3 \(operation): \(response.summary)")
    }
  }

  /// A 404 that means "no such key", as opposed to a missing bucket (which must not look like
  /// an empty store). HEAD answers have no body, so there only the status is known.
  func isMissingObject(_ response: S3Response) -> Bool {
    response.status == 404 && response.errorCode != "NoSuchBucket"
  }
}
