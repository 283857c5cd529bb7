import TestSupport

@testable import ArtworkCore
@testable import CurlClient
@testable import SafeFetch

/// Fetchers and helpers shared by the fetch tests.
enum FetchTest {
  /// One pool for the whole test run (its threads live as long as the process).
  static let pool = FetchPool(threads: 8, queueLimit: 64)

  /// A loopback-allowing policy: the tests' stand-in for ARTWORK_PRIVATE_SOURCES.
  static func policy(_ sources: String) -> AddressPolicy {
    var problems: [String] = []
    let list = PrivateSourceAllowList(parsing: sources, problems: &problems)
    precondition(problems.isEmpty, "\(problems)")
    return AddressPolicy(privateSources: list)
  }

  static func fetcher(
    allow sources: String? = "127.0.0.1,::1", maxBytes: Int = 1_000_000,
    timeout: Duration = .seconds(8), trustTestCA: Bool = true, pool: FetchPool = pool
  ) throws -> SourceFetcher {
    Curl.globalInit()
    let configuration = SourceFetcher.Configuration(
      policy: sources.map { policy($0) } ?? .publicOnly, maxBytes: maxBytes,
      fetchTimeout: timeout, caFile: trustTestCA ? TestCertificates.caFile : nil)
    return try SourceFetcher(configuration, pool: pool)
  }

  /// The error `fetch` throws, or nil when it succeeds.
  static func error(
    _ fetcher: SourceFetcher, _ url: String, validators: Validators = Validators()
  ) async -> ArtworkError? {
    do {
      _ = try await fetcher.fetch(url, validators: validators)
      return nil
    } catch {
      return error
    }
  }

  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
