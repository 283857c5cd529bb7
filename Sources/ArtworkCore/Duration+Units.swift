extension Duration {
  /// The duration in seconds, as a Double.
  public var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// The duration in whole milliseconds, rounded up (at least 1): for curl's timeouts.
  public var milliseconds: Int { max(1, Int((seconds * 1000).rounded(.up))) }

  /// The duration in whole milliseconds, rounded toward zero (a negative one stays negative).
  public var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds &* 1000 &+ attoseconds / 1_000_000_000_000_000
  }

  /// The duration in whole nanoseconds, rounded toward zero; saturating past some 292 years
  /// either way (a timeout set to "never" stays the longest, never wraps into the past).
  public var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let (sum, overflowSum) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    if overflowSum { return seconds < 0 ? .min : .max }
    return sum
  }
}
