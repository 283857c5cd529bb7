import Testing

@testable import Observability

@Suite struct ProcessStatsTests {
  /// `/proc/self/stat` is split after the command name's last parenthesis, whatever it holds.
  @Test func processStatFieldsAreNumberedAsProcDoes() throws {
    let line = "42 (a (b) c) S 1 42 42 0 -1 0 0 0 0 0 250 50 0 0 20 0 9 0 1000 4096 300 0"
    let fields = try #require(ProcessStats.statFields(line))
    #expect(fields.number(3) == nil)  // the state letter
    #expect(fields.number(14) == 250 && fields.number(15) == 50)
    #expect(fields.number(22) == 1000 && fields.number(23) == 4096 && fields.number(24) == 300)
    let now = ProcessStats.current()
    #expect(now.residentBytes > 1_048_576 && now.openDescriptors > 2 && now.maxDescriptors > 0)
    #expect(now.startTime > 1_700_000_000 && now.cpuSeconds > 0)
  }
}
