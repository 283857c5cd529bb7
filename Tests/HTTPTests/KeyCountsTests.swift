import TestSupport
import Testing

@testable import HTTP

/// Counts by key with the largest at hand, checked against counting them plainly.
@Suite struct KeyCountsTests {
  @Test func theLargestIsAlwaysTheLargest() {
    var counts = KeyCounts()
    var plain: [String: Int] = [:]
    var random = SeededRandom()
    for _ in 0..<20_000 {
      let key = "k\(random.next() % 40)"
      if random.next() % 3 == 0 {
        counts.decrement(key)
        if let value = plain[key] { plain[key] = value > 1 ? value - 1 : nil }
      } else {
        counts.increment(key)
        plain[key, default: 0] += 1
      }
      let largest = plain.values.max() ?? 0
      #expect(counts.top?.count ?? 0 == largest, "\(SeededRandom.replay)")
      if let top = counts.top { #expect(plain[top.key] == largest) }
      #expect(counts.keys == plain.count)
      #expect(counts[key] == plain[key, default: 0])
      if counts.top?.count ?? 0 != largest { break }
    }
  }

  @Test func aKeyWithNoneIsForgotten() {
    var counts = KeyCounts()
    counts.increment("a")
    counts.decrement("a")
    counts.decrement("a")
    #expect(counts.top == nil && counts.keys == 0 && counts["a"] == 0)
  }
}
