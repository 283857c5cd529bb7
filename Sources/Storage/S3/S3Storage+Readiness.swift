/// The readiness check: one real signed write and delete, reported in words an operator can act
/// on (credentials refused, bucket missing, endpoint unreachable).
extension S3Storage {
  /// Nil when a signed listing of the bucket and a signed write and delete of a probe object
  /// all succeed; otherwise the first problem, in words for an operator.
  ///
  /// NOTE: the listing comes first because some stores (SeaweedFS) create a missing bucket on
  /// a write, which would hide a misspelt bucket name; a listing reports `NoSuchBucket`.
  public func readinessProblem() async -> StorageProblem? {
    let configuration = requests.configuration
    if let problem = configuration.problems.first {
      return StorageProblem(summary: "the S3 settings are incomplete", detail: problem)
    }
    let list = requests.listObjects(prefix: probeKey, continuationToken: nil, maxKeys: 1)
    let probe = requests.putObject(
      probeKey, body: Array("ok".utf8), contentType: "text/plain", cacheControl: nil,
      createOnly: false)
    for request in [list, probe] {
      switch await client.perform(request) {
      case .failure(let failure):
        return Self.readinessProblem(failure, configuration: configuration)
      case .success(let response) where response.isSuccess:
        continue
      case .success(let response):
        return Self.readinessProblem(response, configuration: configuration)
      }
    }
    // The probe stays behind only if this delete fails; it is tiny and overwritten next time.
    _ = await client.perform(requests.deleteObject(probeKey))
    return nil
  }

  /// A bucket has no free space to run out of.
  public func freeSpace() -> (free: Int, kept: Int)? { nil }

  /// S3 keeps no temp files: a failed upload leaves nothing behind.
  public func removeAbandonedWrites() async -> Int { 0 }

  /// S3 holds nothing for its lifetime that another server would need.
  public func release() {}

  /// Words for a store that did not answer.
  static func readinessProblem(
    _ failure: S3Client.Failure, configuration: S3Configuration
  ) -> StorageProblem {
    if failure.isTimeout {
      return StorageProblem(
        summary: "the S3 endpoint did not answer in time",
        detail:
          "the S3 endpoint \(configuration.endpoint) did not answer in time: \(failure.message)")
    }
    return StorageProblem(
      summary: "the S3 endpoint cannot be reached",
      detail: "the S3 endpoint \(configuration.endpoint) cannot be reached: \(failure.message)")
  }

  /// Words for a refused request.
  static func readinessProblem(_ response: S3Response, configuration: S3Configuration)
    -> StorageProblem
  {
    let bucket = configuration.bucket
    let (summary, specifics): (String, String)
    switch response.errorCode {
    case "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken":
      (summary, specifics) = ("the S3 credentials were refused", "")
    case "AccessDenied":
      (summary, specifics) = (
        "the S3 credentials may not write to the bucket", " (bucket \"\(bucket)\")"
      )
    case "NoSuchBucket":
      (summary, specifics) = (
        "the S3 bucket does not exist", " (bucket \"\(bucket)\" at \(configuration.endpoint))"
      )
    case "PermanentRedirect", "AuthorizationHeaderMalformed", "IllegalLocationConstraintException":
      (summary, specifics) = (
        "the S3 bucket is not reachable with this region at this endpoint",
        " (bucket \"\(bucket)\", region \"\(configuration.region)\")"
      )
    default:
      (summary, specifics) =
        response.status == 403
        ? ("the S3 credentials were refused", "")
        : ("the S3 store refused a test request to the bucket", " (bucket \"\(bucket)\")")
    }
    return StorageProblem(summary: summary, detail: "\(summary)\(specifics): \(response.summary)")
  }
}
