import Foundation
import TestSupport
import Testing

@testable import ArtworkService
@testable import CurlClient
@testable import Storage

extension ReplicaSuites {
  /// The `ArtworkStorage` contract, one suite for both backends.
  @Suite(.seaweedFS) struct StorageContractTests {
    enum Backend: String, CaseIterable, Sendable {
      case fileSystem, s3
    }

    static func storage(_ backend: Backend) throws -> any ArtworkStorage {
      switch backend {
      case .fileSystem:
        let directory = FileManager.default.temporaryDirectory
          .appendingPathComponent("artwork-contract-\(UUID().uuidString)")
        return try FileSystemStorage(directory: directory.path)
      case .s3:
        Curl.globalInit()
        let server = try SeaweedFSScope.server
        return S3Storage(
          configuration: S3Configuration(
            endpoint: server.endpoint, region: SeaweedFS.region, bucket: server.bucket,
            prefix: "contract-\(UUID().uuidString.lowercased())", accessKey: SeaweedFS.accessKey,
            secretKey: SeaweedFS.secretKey))
      }
    }

    @Test(arguments: Backend.allCases)
    func meetsTheContract(backend: Backend) async throws {
      try await StorageContract.check(try Self.storage(backend))
    }
  }
}
