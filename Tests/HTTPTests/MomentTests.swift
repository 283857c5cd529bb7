import Testing

@testable import HTTP

@Suite struct MomentTests {
  @Test func sumsAndDifferencesAgree() {
    let start = Moment(nanoseconds: 1_000)
    let later = start + .milliseconds(2)
    #expect(later.nanoseconds == 2_001_000)
    #expect(later - start == .milliseconds(2))
    #expect(start - later == .milliseconds(-2))
    #expect(start < later && !(later < start))
    var moved = start
    moved += .seconds(1)
    #expect(moved == start + .seconds(1))
  }

  /// A deadline a very long way off (a timeout set to "never") does not wrap into the past.
  @Test func aFarDeadlineSaturates() {
    let now = Moment.now
    #expect(now + .seconds(Int64.max) == Moment(nanoseconds: .max))
    #expect(now + .seconds(Int64.max) > now)
    #expect(Moment(nanoseconds: .min + 5) + .seconds(Int64.min) == Moment(nanoseconds: .min))
  }

  @Test func theClockDoesNotGoBack() {
    let first = Moment.now
    let second = Moment.now
    #expect(first <= second)
  }
}
