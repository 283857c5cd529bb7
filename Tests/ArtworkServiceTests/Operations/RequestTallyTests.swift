import Testing

@testable import ArtworkService

@Suite struct RequestTallyTests {
  /// Keys that hash alike (same status, same lengths) are still told apart by their strings.
  @Test func keysThatHashAlikeKeepTheirOwnCounts() {
    var tally = RequestTally(bounds: [0.1, 1])
    let first = RequestTally.Key(route: "/v1/aaa", status: 200, caller: "anonymous")
    let second = RequestTally.Key(route: "/v1/bbb", status: 200, caller: "anonymous")
    let third = RequestTally.Key(route: "/v1/aaa", status: 200, caller: "relay-two")
    tally.count(first, seconds: 0.05)
    tally.count(first, seconds: 0.5)
    tally.count(second, seconds: 2)
    tally.count(third, seconds: 0.05)
    let counts = Dictionary(uniqueKeysWithValues: tally.counts.map { ($0.labels, $0.value) })
    #expect(counts[["/v1/aaa", "200", "anonymous"]] == 2)
    #expect(counts[["/v1/bbb", "200", "anonymous"]] == 1)
    #expect(counts[["/v1/aaa", "200", "relay-two"]] == 1)
    // Durations are by route only: both callers of /v1/aaa land in one histogram.
    let durations = Dictionary(
      uniqueKeysWithValues: tally.durations.map { ($0.labels, $0.series) })
    #expect(durations.count == 2)
    #expect(durations[["/v1/aaa"]]?.count == 3)
    #expect(durations[["/v1/aaa"]]?.counts == [2, 3])
    #expect(durations[["/v1/bbb"]]?.counts == [0, 0])
    #expect(durations[["/v1/bbb"]]?.sum == 2)
  }

  /// A seeded series starts at zero and is not reset by seeding again.
  @Test func seedingMakesZeroSeriesAndKeepsCounts() {
    var tally = RequestTally(bounds: [1])
    let key = RequestTally.Key(route: "/healthz", status: 503, caller: "anonymous")
    tally.makeSlot(key)
    #expect(tally.counts.map(\.value) == [0])
    #expect(tally.durations.map(\.series.count) == [0])
    tally.count(key, seconds: 0.1)
    tally.makeSlot(key)
    #expect(tally.counts.map(\.value) == [1])
    #expect(tally.durations.count == 1)
  }
}
