/// The readiness check: one real signed write and delete, reported in words an operator can act
/// on (credentials refused, bucket missing, endpoint unreachable).
extension S3Storage {
  /// Nil when a signed listing of the bucket and a signed write and delete of a probe object
  /// all succeed; otherwise the first problem, in words for an operator.
  ///
  /// NOTE: the listing comes first because some stores (SeaweedFS) create a missing bucket on
  /// a write, which would hide a misspelt bucket name; a listing reports `NoSuchBucket`.
  public func readinessProblem() async -> String? {
    let configuration = requests.configuration
    if let problem = configuration.problems.first { return problem }
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

  /// Words for a store that did not answer.
  static func readinessProblem(
    _ failure: S3Client.Failure, configuration: S3Configuration
  ) -> String {
    if failure.isTimeout {
      return "the S3 endpoint \(configuration.endpoint) did not answer in time: \(failure.message)"
    }
    return "the S3 endpoint \(configuration.endpoint) cannot be reached: \(failure.message)"
  }

  /// Words for a refused request.
  static func readinessProblem(_ response: S3Response, configuration: S3Configuration) -> String {
    let bucket = configuration.bucket
    let what = response.summary
    switch response.errorCode {
    case "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken":
      return "the S3 credentials were refused: \(what)"
    case "AccessDenied":
      return "the S3 credentials may not write to bucket \"\(bucket)\": \(what)"
    case "NoSuchBucket":
      return "the S3 bucket \"\(bucket)\" does not exist at \(configuration.endpoint): \(what)"
    case "PermanentRedirect", "AuthorizationHeaderMalformed", "IllegalLocationConstraintException":
      return
        "the S3 bucket \"\(bucket)\" is not reachable with region \"\(configuration.region)\" "
        + "at this endpoint: \(what)"
    default:
      if response.status == 403 { return "the S3 credentials were refused: \(what)" }
      return "the S3 store refused a test request to bucket \"\(bucket)\": \(what)"
    }
  }
}
