import Testing

@testable import Pixels

@Suite struct SRGBTransferTests {
  @Test func everyCodeSurvivesTheRoundTrip() {
    for code in 0..<256 {
      let linear = SRGBTransfer.toLinear[code]
      let index = Int((linear * Float(SRGBTransfer.steps) + 0.5).rounded(.down))
      #expect(SRGBTransfer.fromLinear[index] == UInt8(code), "code \(code)")
    }
  }

  @Test func theTablesFollowTheStandardCurve() {
    #expect(SRGBTransfer.toLinear[0] == 0)
    #expect(SRGBTransfer.toLinear[255] == 1)
    // Mid-grey light (0.5) is code 188, not 128: the curve is not a straight line.
    #expect(SRGBTransfer.fromLinear[SRGBTransfer.steps / 2] == 188)
    #expect(abs(SRGBTransfer.toLinear[128] - 0.2158605) < 1e-6)
  }
}
