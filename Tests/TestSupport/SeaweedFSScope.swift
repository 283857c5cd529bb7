import Testing

/// One SeaweedFS server for a whole suite: `@Suite(.serialized, .seaweedFS)`. Started before the
/// suite's first test and shut down (data removed) after its last, even when tests fail; tests
/// reach it through `SeaweedFSScope.server`.
public struct SeaweedFSScope: SuiteTrait, TestScoping {
  /// The server of the suite running now.
  @TaskLocal public static var current: SeaweedFS?

  /// The suite's server. Fails the test (rather than crashing) if used outside such a suite.
  public static var server: SeaweedFS {
    get throws {
      guard let current else { throw SeaweedFSError.outsideScope }
      return current
    }
  }

  /// The server is the suite's, not each test's.
  public var isRecursive: Bool { false }

  /// Starts the server, runs the suite, and shuts the server down.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let server = try await SeaweedFS.start()
    do {
      try await Self.$current.withValue(server) { try await function() }
    } catch {
      await server.shutDown()
      throw error
    }
    await server.shutDown()
  }
}

extension Trait where Self == SeaweedFSScope {
  /// Runs the suite with one shared SeaweedFS server (see `SeaweedFSScope`).
  public static var seaweedFS: Self { SeaweedFSScope() }
}

extension SeaweedFSError {
  static var outsideScope: SeaweedFSError {
    SeaweedFSError("SeaweedFSScope.server used outside a @Suite(.seaweedFS)")
  }
}
