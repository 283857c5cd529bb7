import ArtworkCore
import HTTP
import Observability
import Synchronization
import WorkerHost

/// The service's counters, gauges and histograms, rendered in the Prometheus text exposition
/// format for `GET /metrics`. One instance is shared by the whole process.
///
/// Every metric family is declared up front in `Metrics.families` (name, help, type, labels), so
/// the output always lists them, even at zero, and label names cannot drift between call sites.
/// Label values must have bounded cardinality: pass route patterns, not raw paths. The series
/// are kept by a `MetricsRegistry`, but for the two every request updates (`RequestTally`).
final class Metrics: Sendable {
  private let registry = MetricsRegistry(families: Metrics.families)
  /// `requests` and `requestDuration`, which every request updates.
  private let tally = Mutex(RequestTally(bounds: Metrics.requestDuration.buckets))

  /// Metrics whose labelled series start at zero for every label value known in advance
  /// (`routes`, the stages, cache results, fetch outcomes, worker failures), so a dashboard
  /// sees them before their first event and an alert's `rate()` sees the first one.
  init(routes: [String] = []) {
    seed(routes: routes)
  }

  /// Zero series for `routes` (the patterns the access log will name), the stages, cache
  /// results, fetch outcomes and every counter an alert watches (`deploy/prometheus`): a
  /// series that appears at 1 hides its first event from `rate()`, and a missing one never
  /// fires.
  func seed(routes: [String]) {
    tally.withLock { tally in
      for route in routes {
        // The statuses the server-error alert counts as the service's own (502 and 504 are
        // the source origin's).
        for status in [200, 500, 503] {
          tally.makeSlot(.init(route: route, status: status, caller: "anonymous"))
        }
      }
    }
    for stage in Self.stages {
      registry.reset(Self.stageDuration, [stage])
    }
    for result in ["hit", "miss"] {
      registry.reset(Self.cacheLookups, [result])
    }
    for outcome in ["ok", "not_modified"] {
      registry.reset(Self.fetches, [outcome])
    }
    for status in ["ready", "pending", "failed"] {
      registry.reset(Self.contentArtwork, [status])
    }
    for status in ["401", "429"] {
      registry.reset(Self.tokenRefusals, [status])
    }
    for result in ["ok", "refused"] {
      registry.reset(Self.tokenReloads, [result])
    }
    for reason in DecoderFailure.allCases.map(\.rawValue) {
      registry.reset(Self.workerFailures, [reason])
      registry.reset(Self.workerRefusals, [reason])
    }
    for cause in WorkerInterruption.Cause.allCases.map(\.rawValue) {
      registry.reset(Self.workerInterruptions, [cause])
    }
    for operation in ["read", "write"] {
      registry.reset(Self.resultCacheFailures, [operation])
    }
  }

  /// Zero series for each of `callers` (the configured tokens' names and `anonymous`) in the
  /// families counted by caller, without touching a series that exists (a reload seeds again).
  func seed(callers: [String]) {
    for caller in callers {
      registry.increment(Self.rateLimited, [caller], by: 0)
      registry.increment(Self.callerRefusals, [caller], by: 0)
    }
  }

  /// Where the in-flight gauge is read from at each scrape (the HTTP server, once it exists).
  let inFlightSource = Mutex<(@Sendable () -> Int)?>(nil)
  /// Where the count of illegal connection-state moves is read from (the HTTP server).
  let illegalTransitionSource = Mutex<(@Sendable () -> Int)?>(nil)
  /// Where the counts of connections shed at the connection limit are read from (the HTTP
  /// server): those that had not sent a first head, and those idle between requests.
  let connectionsShedSource = Mutex<(@Sendable () -> (waitingHead: Int, idle: Int))?>(nil)
  /// Where the counts of requests the HTTP server refused by itself for load are read from.
  let overloadRefusalSource = Mutex<(@Sendable () -> OverloadRefusals.Counts)?>(nil)
  /// Where the counts of failed record reads and writes are read from (the result caches).
  let resultFailureSource = Mutex<(@Sendable () -> (reads: Int, writes: Int))?>(nil)

  /// Adds `amount` to a counter series.
  func increment(_ family: MetricFamily, _ labels: [String] = [], by amount: Double = 1) {
    registry.increment(family, labels, by: amount)
  }

  /// Sets a gauge series, or a counter kept elsewhere (CPU seconds, cache hits) to its total.
  func set(_ family: MetricFamily, _ labels: [String] = [], to value: Double) {
    registry.set(family, labels, to: value)
  }

  /// Records one observation in a histogram series.
  func observe(_ family: MetricFamily, _ labels: [String] = [], _ value: Double) {
    registry.observe(family, labels, value)
  }

  /// The current value of a counter or gauge series (0 when never touched); for tests and checks.
  func value(_ family: MetricFamily, _ labels: [String] = []) -> Double {
    guard family.name != Self.requests.name else {
      return tally.withLock { $0.counts.first { $0.labels == labels }?.value ?? 0 }
    }
    return registry.value(family, labels)
  }

  /// Everything, in the Prometheus text format (version 0.0.4).
  func render() -> String {
    let requests = tally.withLock { $0 }
    var more = MetricSamples()
    more.values[Self.requests.name] = Dictionary(
      requests.counts.map { ($0.labels, $0.value) }, uniquingKeysWith: +)
    more.histograms[Self.requestDuration.name] = Dictionary(
      requests.durations.map { ($0.labels, $0.series) }, uniquingKeysWith: { $1 })
    return registry.render(adding: more)
  }

  /// One answered request, in `requests` and `requestDuration`, under one lock and without
  /// building a label list (after the first of each route, status and caller). `route` is the
  /// route pattern (e.g. `/v1/images/{id}`), never the raw path, and `caller` a configured
  /// token's name or `anonymous`, so that the number of series stays bounded. The duration is
  /// by route only: a histogram per caller would multiply its buckets for little insight.
  func countRequest(
    route: String, status: Int, caller: String = APIToken.anonymous, seconds: Double
  ) {
    tally.withLock { tally in
      tally.count(.init(route: route, status: status, caller: caller), seconds: seconds)
    }
  }
}
