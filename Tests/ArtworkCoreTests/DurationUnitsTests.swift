import ArtworkCore
import Testing

@Suite struct DurationUnitsTests {
  @Test func durationsConvertToWholeNanoseconds() {
    #expect(Duration.milliseconds(1500).nanoseconds == 1_500_000_000)
    #expect(Duration.nanoseconds(-7).nanoseconds == -7)
    #expect(Duration.seconds(Int64.max).nanoseconds == .max)
    #expect(Duration.seconds(Int64.min).nanoseconds == .min)
  }
}
