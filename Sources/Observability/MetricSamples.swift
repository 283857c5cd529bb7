/// What a set of metric families holds at one moment: the value of each counter and gauge
/// series, and each histogram series, by family name and then by label values (in the order
/// of the family's label names).
public struct MetricSamples: Sendable {
  /// Counter and gauge series.
  public var values: [String: [[String]: Double]] = [:]
  /// Histogram series.
  public var histograms: [String: [[String]: HistogramSeries]] = [:]

  /// No series at all.
  public init() {}
}
