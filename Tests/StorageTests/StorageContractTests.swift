import Foundation
import TestSupport
import Testing

@testable import CurlClient
@testable import Storage

/// The `ArtworkStorage` contract, one suite for both backends.
@Suite(.serialized, .seaweedFS) struct StorageContractTests {
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
      return try SeaweedFSScope.server.storage()
    }
  }

  @Test(arguments: Backend.allCases)
  func meetsTheContract(backend: Backend) async throws {
    try await StorageContract.check(try Self.storage(backend))
  }
}
