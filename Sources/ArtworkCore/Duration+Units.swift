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

  /// The duration in whole nanoseconds, rounded toward zero; wraps instead of trapping beyond
  /// some 292 years.
  public var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
  }
}
