/// The kind of a metric family, as written on its `# TYPE` line.
public enum MetricType: String, Sendable {
  case counter, gauge, histogram
}

/// A declared metric family: its name, help text, type, label names and, for histograms,
/// the upper bounds of its buckets.
public struct MetricFamily: Sendable, Hashable {
  /// The Prometheus metric name.
  public let name: String
  /// The `# HELP` text.
  public let help: String
  /// Counter, gauge or histogram.
  public let type: MetricType
  /// The label names, in order.
  public let labels: [String]
  /// A histogram's bucket bounds, ascending (empty for a counter or gauge).
  public let buckets: [Double]
  /// Whether a family without labels is left without a sample until it is set (a value that
  /// one backend has and another has not, such as free space on S3), instead of showing 0.
  public let onlyWhenSet: Bool

  /// A family as declared; `onlyWhenSet` only matters to one without labels.
  public init(
    name: String, help: String, type: MetricType, labels: [String], buckets: [Double],
    onlyWhenSet: Bool = false
  ) {
    self.name = name
    self.help = help
    self.type = type
    self.labels = labels
    self.buckets = buckets
    self.onlyWhenSet = onlyWhenSet
  }
}
