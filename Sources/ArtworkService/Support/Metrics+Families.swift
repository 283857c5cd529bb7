extension Metrics {
  /// The kind of a metric family, as written on its `# TYPE` line.
  enum FamilyType: String, Sendable {
    case counter, gauge, histogram
  }

  /// A declared metric family: its name, help text, type, label names and, for histograms,
  /// the upper bounds of its buckets.
  struct Family: Sendable, Hashable {
    /// The Prometheus metric name.
    let name: String
    /// The `# HELP` text.
    let help: String
    /// Counter, gauge or histogram.
    let type: FamilyType
    /// The label names, in order.
    let labels: [String]
    let buckets: [Double]
  }

  /// HTTP requests answered, by route and status.
  static let requests = Family(
    name: "artwork_http_requests_total", help: "HTTP requests answered, by route and status.",
    type: .counter, labels: ["route", "status"], buckets: [])
  static let requestDuration = Family(
    name: "artwork_http_request_duration_seconds",
    help: "Time from request to response, by route.", type: .histogram, labels: ["route"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])
  static let artworkCreated = Family(
    name: "artwork_created_total", help: "Artwork objects created (newly stored).",
    type: .counter, labels: [], buckets: [])
  static let bytesStored = Family(
    name: "artwork_stored_bytes_total", help: "Bytes of artwork newly stored.", type: .counter,
    labels: [], buckets: [])
  /// Source URL fetches, by outcome.
  static let fetches = Family(
    name: "artwork_source_fetches_total", help: "Source URL fetches, by outcome.",
    type: .counter, labels: ["outcome"], buckets: [])
  static let cacheLookups = Family(
    name: "artwork_cache_lookups_total", help: "Source result cache lookups, by result.",
    type: .counter, labels: ["result"], buckets: [])
  static let queueRejections = Family(
    name: "artwork_queue_rejections_total",
    help: "Requests refused with 503 because the worker queue was full.", type: .counter,
    labels: [], buckets: [])
  static let workersBusy = Family(
    name: "artwork_workers_busy", help: "Workers running a job now.", type: .gauge, labels: [],
    buckets: [])
  static let queueWaiting = Family(
    name: "artwork_queue_waiting", help: "Jobs waiting for a worker now.", type: .gauge,
    labels: [], buckets: [])

  /// Every family, in the order `render()` writes them.
  static let families: [Family] = [
    requests, requestDuration, artworkCreated, bytesStored, fetches, cacheLookups,
    queueRejections, workersBusy, queueWaiting,
  ]
}
