import Testing

@testable import ArtworkCore
@testable import WorkerHost

/// The memory of inputs that made a worker fail: found by SHA-256 while fresh, checked only when
/// an input's size matches, bounded, forgotten when stale.
@Suite struct FailedInputsTests {
  @Test func aRememberedInputIsFoundUntilItGoesStale() async throws {
    let memory = FailedInputs(lifetime: .milliseconds(200))
    #expect(!memory.mightHold(count: 10))
    memory.remember("aa", count: 10, reason: .crash)
    #expect(memory.mightHold(count: 10) && !memory.mightHold(count: 11))
    #expect(memory.failure(of: "aa")?.reason == .crash)
    #expect(memory.failure(of: "bb") == nil)
    try await Task.sleep(for: .milliseconds(300))
    #expect(memory.failure(of: "aa") == nil)
    #expect(!memory.mightHold(count: 10) && memory.count == 0)
  }

  @Test func theOldestGoesFirstPastTheCapacity() {
    let memory = FailedInputs(lifetime: .seconds(60), capacity: 3)
    for (index, digest) in ["a", "b", "c", "d"].enumerated() {
      memory.remember(digest, count: index, reason: .timeout)
    }
    #expect(memory.count == 3)
    #expect(memory.failure(of: "a") == nil && memory.failure(of: "d")?.reason == .timeout)
    #expect(!memory.mightHold(count: 0) && memory.mightHold(count: 3))
  }
}
