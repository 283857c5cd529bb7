import CurlClient
import Foundation
import Storage

extension SeaweedFS {
  /// S3 storage on this server under a prefix of its own, so suites sharing the server never
  /// see each other's objects.
  public func storage(prefix: String = "contract-\(UUID().uuidString.lowercased())") -> S3Storage {
    Curl.globalInit()
    return S3Storage(
      configuration: S3Configuration(
        endpoint: endpoint, region: Self.region, bucket: bucket, prefix: prefix,
        accessKey: Self.accessKey, secretKey: Self.secretKey))
  }
}
