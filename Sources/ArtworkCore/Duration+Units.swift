extension Duration {
  /// The duration in seconds, as a Double.
  public var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// The duration in whole milliseconds, rounded up (at least 1): for curl's timeouts.
  public var milliseconds: Int { max(1, Int((seconds * 1000).rounded(.up))) }
}
