import Testing

@testable import HTTP

/// The body budget shared out by share: arriving bodies bounded per share, one share alone
/// held to three quarters (seven eighths below an equal share), the last of the reserve for a
/// share that holds nothing, and everything given back exactly.
@Suite struct BodyBudgetTests {
  @Test func oneShareAloneLeavesTheReserveToOthers() {
    let budget = BodyBudget(limit: 800)
    #expect(budget.reserve == 200)
    // The flood takes the general part, then half the reserve while it is alone (below an
    // equal share, 800), and nothing more.
    for _ in 0..<6 { #expect(budget.admit(100, share: "flood") == nil) }
    #expect(budget.admit(100, share: "flood") == nil)
    #expect(budget.admit(100, share: "flood") == .memory, "the last half of the reserve")
    #expect(budget.reserved == 700)
    // Another share that holds nothing takes the rest.
    #expect(budget.admit(100, share: "relay") == nil)
    #expect(budget.reserved == 800)
    #expect(budget.admit(1, share: "third") == .memory, "the limit holds for everyone")
  }

  @Test func aShareHoldingSomeTakesTheReserveOnlyBelowAnEqualShare() {
    let budget = BodyBudget(limit: 800)
    #expect(budget.admit(500, share: "flood") == nil)
    #expect(budget.admit(100, share: "relay") == nil)
    // 700 would pass the general part (600): relay (100, equal share 400) may, flood (500)
    // may not.
    #expect(budget.admit(100, share: "flood") == .memory)
    #expect(budget.admit(100, share: "relay") == nil)
    // Half the reserve (100) stays for a share that holds nothing.
    #expect(budget.admit(50, share: "relay") == .memory)
    #expect(budget.admit(100, share: "new") == nil)
    #expect(budget.reserved == 800)
  }

  @Test func aShareHasAtMostItsArrivingBodiesAndArrivedOnesFreeTheirPlace() {
    let budget = BodyBudget(limit: 1 << 20, maxArrivingPerShare: 2)
    #expect(budget.admit(10, share: "slow") == nil)
    #expect(budget.admit(0, share: "slow") == nil, "a chunked body counts as arriving")
    #expect(budget.admit(10, share: "slow") == .arriving)
    #expect(budget.admit(10, share: "other") == nil, "another share has its own places")
    #expect(budget.arriving == 3)
    budget.arrived(share: "slow")
    #expect(budget.admit(10, share: "slow") == nil)
    // Arrived bodies keep their bytes until released.
    budget.arrived(share: "slow")
    budget.arrived(share: "slow")
    budget.arrived(share: "other")
    #expect(budget.arriving == 0)
    #expect(budget.reserved == 30)
    budget.release(10, share: "slow")
    budget.release(10, share: "other")
    #expect(budget.reserved == 10)
    budget.release(10, share: "slow")
    #expect(budget.reserved == 0)
  }

  @Test func aChunkedBodyGrowsWithinTheSameRules() {
    let budget = BodyBudget(limit: 800)
    #expect(budget.admit(0, share: "flood") == nil)
    for _ in 0..<7 { #expect(budget.grow(100, share: "flood")) }
    #expect(!budget.grow(100, share: "flood"))
    #expect(budget.grow(100, share: "relay"))
    #expect(budget.reserved == 800)
  }

  @Test func sizesPastAnyLimitAreRefusedNotWrapped() {
    let budget = BodyBudget(limit: 800)
    #expect(budget.admit(100, share: "a") == nil)
    #expect(budget.admit(.max, share: "a") == .memory)
    #expect(!budget.grow(.max, share: "b"))
    #expect(budget.reserved == 100)
  }
}
