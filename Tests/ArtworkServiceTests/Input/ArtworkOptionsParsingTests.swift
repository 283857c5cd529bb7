import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// The one value the service reads out of a JSON number, `size`, is range-checked as digits;
/// numbers elsewhere pass through as written.
@Suite struct ArtworkOptionsParsingTests {
  @Test(arguments: [
    "+400", " 400", "400 ", "0x190", "-400", "4e2.", "", "1e400", "99999999999999999999999", "0",
    "000",
  ])
  func aSizeIsDigitsInRange(text: String) {
    #expect(throws: ArtworkError.self, "\(text)") {
      _ = try ArtworkOptions(fields: ["size": text])
    }
  }

  @Test func leadingZerosAreDigitsToo() throws {
    #expect(try ArtworkOptions(fields: ["size": "00000000400"]).size == 400)
    #expect(try ArtworkOptions(fields: ["size": "0064"]).size == 64)
  }

  @Test func jsonNumbersBecomeOptionTextAsARelayMeansThem() throws {
    #expect(ArtworkRequest.optionText("400") == "400")
    #expect(ArtworkRequest.optionText("400.0") == "400")
    #expect(ArtworkRequest.optionText("4e2") == "400")
    #expect(ArtworkRequest.optionText("1e400") == "1e400")
    #expect(ArtworkRequest.optionText("400.5") == "400.5")
    #expect(try ArtworkOptions(fields: ["size": ArtworkRequest.optionText("4e2")]).size == 400)
  }
}
