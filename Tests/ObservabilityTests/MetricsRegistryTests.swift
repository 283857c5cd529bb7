import Testing

@testable import Observability

@Suite struct MetricsRegistryTests {
  static let jobs = MetricFamily(
    name: "jobs_total", help: "Jobs done,\nby result.", type: .counter, labels: ["result"],
    buckets: [])
  static let busy = MetricFamily(
    name: "busy", help: "Busy workers.", type: .gauge, labels: [], buckets: [])
  static let free = MetricFamily(
    name: "free_bytes", help: "Free bytes.", type: .gauge, labels: [], buckets: [],
    onlyWhenSet: true)
  static let seconds = MetricFamily(
    name: "job_seconds", help: "Job time.", type: .histogram, labels: ["stage"],
    buckets: [0.1, 1])

  static func lines(_ registry: MetricsRegistry, adding more: MetricSamples = MetricSamples())
    -> [String]
  {
    registry.render(adding: more).split(separator: "\n").map(String.init)
  }

  /// Every family is declared in order, with its help escaped; an unlabelled one shows 0
  /// before its first event unless it is sampled only when set.
  @Test func declaresEveryFamilyInOrder() {
    let registry = MetricsRegistry(families: [Self.jobs, Self.busy, Self.free, Self.seconds])
    #expect(
      Self.lines(registry) == [
        #"# HELP jobs_total Jobs done,\nby result."#, "# TYPE jobs_total counter",
        "# HELP busy Busy workers.", "# TYPE busy gauge", "busy 0",
        "# HELP free_bytes Free bytes.", "# TYPE free_bytes gauge",
        "# HELP job_seconds Job time.", "# TYPE job_seconds histogram",
      ])
  }

  /// Counters add, gauges are set, histograms count each observation in every bucket whose
  /// bound it does not pass; series come in the order of their label values.
  @Test func countsSetsAndObserves() {
    let registry = MetricsRegistry(families: [Self.jobs, Self.busy, Self.free, Self.seconds])
    registry.increment(Self.jobs, ["ok"])
    registry.increment(Self.jobs, ["ok"], by: 2)
    registry.increment(Self.jobs, ["failed"])
    registry.set(Self.busy, to: 3)
    registry.set(Self.free, to: 1_000_000)
    registry.observe(Self.seconds, ["decode"], 0.05)
    registry.observe(Self.seconds, ["decode"], 0.5)
    #expect(registry.value(Self.jobs, ["ok"]) == 3)
    #expect(registry.value(Self.jobs, ["missing"]) == 0)
    #expect(
      Self.lines(registry).filter { !$0.hasPrefix("#") } == [
        #"jobs_total{result="failed"} 1"#, #"jobs_total{result="ok"} 3"#, "busy 3",
        "free_bytes 1000000",
        #"job_seconds_bucket{stage="decode",le="0.1"} 1"#,
        #"job_seconds_bucket{stage="decode",le="1"} 2"#,
        #"job_seconds_bucket{stage="decode",le="+Inf"} 2"#,
        #"job_seconds_sum{stage="decode"} 0.55"#, #"job_seconds_count{stage="decode"} 2"#,
      ])
  }

  /// `reset` makes a series at zero over what was there; adding 0 makes one and keeps a count.
  @Test func resetReplacesAndAddingZeroKeeps() {
    let registry = MetricsRegistry(families: [Self.jobs, Self.seconds])
    registry.increment(Self.jobs, ["ok"], by: 4)
    registry.increment(Self.jobs, ["ok"], by: 0)
    registry.increment(Self.jobs, ["failed"], by: 0)
    #expect(registry.value(Self.jobs, ["ok"]) == 4 && registry.value(Self.jobs, ["failed"]) == 0)
    registry.reset(Self.jobs, ["ok"])
    registry.observe(Self.seconds, ["encode"], 2)
    registry.reset(Self.seconds, ["encode"])
    let lines = Self.lines(registry)
    #expect(lines.contains(#"jobs_total{result="ok"} 0"#))
    #expect(lines.contains(#"job_seconds_count{stage="encode"} 0"#))
    #expect(lines.contains(#"job_seconds_bucket{stage="encode",le="+Inf"} 0"#))
  }

  /// Series kept elsewhere are written with the family, in place of the registry's own.
  @Test func rendersSeriesKeptElsewhere() {
    let registry = MetricsRegistry(families: [Self.jobs, Self.seconds])
    registry.increment(Self.jobs, ["ok"])
    var more = MetricSamples()
    more.values[Self.jobs.name] = [["ok"]: 7]
    var series = HistogramSeries(bucketCount: 2)
    series.record(0.2, bounds: Self.seconds.buckets)
    more.histograms[Self.seconds.name] = [["fetch"]: series]
    let lines = Self.lines(registry, adding: more)
    #expect(lines.contains(#"jobs_total{result="ok"} 7"#))
    #expect(!lines.contains(#"jobs_total{result="ok"} 1"#))
    #expect(lines.contains(#"job_seconds_bucket{stage="fetch",le="0.1"} 0"#))
    #expect(lines.contains(#"job_seconds_bucket{stage="fetch",le="1"} 1"#))
  }
}
