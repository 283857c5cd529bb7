/// How to reach an S3-compatible object store. Only used when the storage is `.s3`.
struct S3Settings: Sendable, Hashable {
  /// Base URL of the service, without a trailing slash (for AWS derived from the region).
  var endpoint: String
  /// The region requests are signed for.
  var region: String
  /// Empty when not configured; a problem is reported if the storage is S3 and these are empty.
  var accessKeyID: String
  var secretAccessKey: String
  /// `https://bucket.endpoint/key` (true) or `https://endpoint/bucket/key` (false, the default,
  /// which MinIO/SeaweedFS-style servers expect).
  var virtualHosted: Bool

}
