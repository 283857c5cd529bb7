import Testing

@testable import Observability

@Suite struct PrometheusTextTests {
  @Test func labelValuesAreEscaped() {
    #expect(
      PrometheusText.labelText(["a", "b"], ["back\\slash \"quoted\"", "two\nlines"])
        == #"{a="back\\slash \"quoted\"",b="two\nlines"}"#)
    #expect(PrometheusText.escapeHelp("a\\b\nc") == #"a\\b\nc"#)
    #expect(PrometheusText.number(3) == "3")
    #expect(PrometheusText.number(0.25) == "0.25")
    #expect(PrometheusText.number(.infinity) == "+Inf")
  }
}
