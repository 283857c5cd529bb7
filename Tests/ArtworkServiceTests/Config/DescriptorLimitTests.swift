import Testing

@testable import ArtworkService

@Suite struct DescriptorLimitTests {
  @Test func theDefaultConnectionLimitFollowsTheDescriptors() {
    // The classic soft limit keeps the old default; a raised one makes room for a fan-out.
    #expect(DescriptorLimit.connections(descriptors: 1024) == 512)
    #expect(DescriptorLimit.connections(descriptors: 20_000) == 14_744)
    #expect(DescriptorLimit.connections(descriptors: 16_384) >= 10_000)
    #expect(DescriptorLimit.connections(descriptors: 1 << 20) == DescriptorLimit.mostConnections)
    #expect(DescriptorLimit.connections(descriptors: 64) == 64)
  }

  @Test func theConfigurationTakesItsDefaultFromTheDescriptors() throws {
    let raised = try ServiceConfig(environment: [:], descriptors: 20_000)
    #expect(raised.maxConnections == 14_744)
    #expect(!raised.warnings.contains { $0.contains("RLIMIT_NOFILE") }, "\(raised.warnings)")
    let classic = try ServiceConfig(environment: [:], descriptors: 1024)
    #expect(classic.maxConnections == 512)
  }

  @Test func aLimitPastTheDescriptorsIsWarnedAbout() throws {
    let config = try ServiceConfig(
      environment: ["ARTWORK_MAX_CONNECTIONS": "5000"], descriptors: 1024)
    #expect(config.maxConnections == 5000)
    #expect(config.warnings.contains { $0.contains("RLIMIT_NOFILE") }, "\(config.warnings)")
  }

  @Test func theProcessMayHoldWhatTheDefaultCounts() {
    // The service raises its soft limit to the hard one at start (`artwork serve`).
    let soft = DescriptorLimit.raiseToHard()
    #expect(soft == DescriptorLimit.current)
    #expect(soft >= 64)
  }
}
