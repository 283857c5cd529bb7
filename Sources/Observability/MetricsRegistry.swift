import Synchronization

/// Counters, gauges and histograms, rendered in the Prometheus text exposition format. One
/// instance is shared by a whole process.
///
/// Every metric family is declared up front (name, help, type, labels), so the output always
/// lists them, even at zero, and label names cannot drift between call sites. Label values
/// must have bounded cardinality: pass route patterns, not raw paths.
public final class MetricsRegistry: Sendable {
  /// Every family, in the order `render` writes them.
  public let families: [MetricFamily]
  private let samples = Mutex(MetricSamples())

  /// A registry of `families`, each series made by its first event (or `reset`).
  public init(families: [MetricFamily]) {
    self.families = families
  }

  /// Adds `amount` to a counter series (0 makes the series at zero, or leaves it as it is).
  public func increment(_ family: MetricFamily, _ labels: [String] = [], by amount: Double = 1) {
    precondition(family.type == .counter && labels.count == family.labels.count)
    samples.withLock { $0.values[family.name, default: [:]][labels, default: 0] += amount }
  }

  /// Sets a gauge series, or a counter kept elsewhere (CPU seconds, cache hits) to its total.
  public func set(_ family: MetricFamily, _ labels: [String] = [], to value: Double) {
    precondition(family.type != .histogram && labels.count == family.labels.count)
    samples.withLock { $0.values[family.name, default: [:]][labels] = value }
  }

  /// Records one observation in a histogram series.
  public func observe(_ family: MetricFamily, _ labels: [String] = [], _ value: Double) {
    precondition(family.type == .histogram && labels.count == family.labels.count)
    samples.withLock { samples in
      // Mutated in place: copying the series out and back would copy its counts every time.
      samples.histograms[family.name, default: [:]][
        labels, default: HistogramSeries(bucketCount: family.buckets.count)
      ].record(value, bounds: family.buckets)
    }
  }

  /// Makes a series at zero, replacing any there: a counter or gauge at 0, a histogram
  /// without observations.
  public func reset(_ family: MetricFamily, _ labels: [String] = []) {
    precondition(labels.count == family.labels.count)
    samples.withLock { samples in
      if family.type == .histogram {
        samples.histograms[family.name, default: [:]][labels] = HistogramSeries(
          bucketCount: family.buckets.count)
      } else {
        samples.values[family.name, default: [:]][labels] = 0
      }
    }
  }

  /// The current value of a counter or gauge series (0 when never touched); for tests and checks.
  public func value(_ family: MetricFamily, _ labels: [String] = []) -> Double {
    samples.withLock { $0.values[family.name]?[labels] ?? 0 }
  }

  /// Everything, in the Prometheus text format, with `more`: series kept elsewhere (in a
  /// structure of their own, for speed), which take the place of any of the same family here.
  public func render(adding more: MetricSamples = MetricSamples()) -> String {
    var snapshot = samples.withLock { $0 }
    snapshot.values.merge(more.values) { _, more in more }
    snapshot.histograms.merge(more.histograms) { _, more in more }
    return PrometheusText.render(families, snapshot)
  }
}
