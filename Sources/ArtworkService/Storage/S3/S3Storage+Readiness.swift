/// The readiness check: one real signed write and delete, reported in words an operator can act
/// on (credentials refused, bucket missing, endpoint unreachable).
extension S3Storage {
  public func readinessProblem() async -> String? {
    let configuration = client.configuration
    if let problem = configuration.problems.first { return problem }
    let endpoint = configuration.endpoint
    let probe = client.putObject(
      probeKey, body: Array("ok".utf8), contentType: "text/plain", cacheControl: nil,
      createOnly: false)
    switch await transport.perform(probe) {
    case .failure(let failure):
      if failure.isTimeout {
        return "the S3 endpoint \(endpoint) did not answer in time: \(failure.message)"
      }
      return "the S3 endpoint \(endpoint) cannot be reached: \(failure.message)"
    case .success(let response) where response.isSuccess:
      // The probe is left behind only if this delete fails; it is tiny and overwritten next time.
      _ = await transport.perform(client.deleteObject(probeKey))
      return nil
    case .success(let response):
      return Self.readinessProblem(response, configuration: configuration)
    }
  }

  /// Words for a refused test write.
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
      return "the S3 store refused a test write to bucket \"\(bucket)\": \(what)"
    }
  }
}
