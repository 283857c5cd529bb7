import ArtworkCore
import Foundation
import HTTP
import ImageWorkers
import Synchronization

/// The service's counters, gauges and histograms, rendered in the Prometheus text exposition
/// format for `GET /metrics`. One instance is shared by the whole process.
///
/// Every metric family is declared up front in `Metrics.families` (name, help, type, labels), so
/// the output always lists them, even at zero, and label names cannot drift between call sites.
/// Label values must have bounded cardinality: pass route patterns, not raw paths.
final class Metrics: Sendable {
  private let state = Mutex(State())

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
    state.withLock { state in
      for route in routes {
        // The statuses the server-error alert counts as the service's own (502 and 504 are
        // the source origin's).
        for status in [200, 500, 503] {
          state.requests.makeSlot(.init(route: route, status: status, caller: "anonymous"))
        }
      }
      for stage in Self.stages {
        state.histograms[Self.stageDuration.name, default: [:]][[stage]] = HistogramSeries(
          bucketCount: Self.stageDuration.buckets.count)
      }
      for result in ["hit", "miss"] {
        state.values[Self.cacheLookups.name, default: [:]][[result]] = 0
      }
      for outcome in ["ok", "not_modified"] {
        state.values[Self.fetches.name, default: [:]][[outcome]] = 0
      }
      for status in ["ready", "pending", "failed"] {
        state.values[Self.contentArtwork.name, default: [:]][[status]] = 0
      }
      for status in ["401", "429"] {
        state.values[Self.tokenRefusals.name, default: [:]][[status]] = 0
      }
      for result in ["ok", "refused"] {
        state.values[Self.tokenReloads.name, default: [:]][[result]] = 0
      }
      for reason in DecoderFailure.allCases.map(\.rawValue) {
        state.values[Self.workerFailures.name, default: [:]][[reason]] = 0
        state.values[Self.workerRefusals.name, default: [:]][[reason]] = 0
      }
      for cause in WorkerInterruption.Cause.allCases.map(\.rawValue) {
        state.values[Self.workerInterruptions.name, default: [:]][[cause]] = 0
      }
      for operation in ["read", "write"] {
        state.values[Self.resultCacheFailures.name, default: [:]][[operation]] = 0
      }
    }
  }

  /// Zero series for each of `callers` (the configured tokens' names and `anonymous`) in the
  /// families counted by caller, without touching a series that exists (a reload seeds again).
  func seed(callers: [String]) {
    state.withLock { state in
      for caller in callers {
        state.values[Self.rateLimited.name, default: [:]][[caller], default: 0] += 0
        state.values[Self.callerRefusals.name, default: [:]][[caller], default: 0] += 0
      }
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
  func increment(_ family: Family, _ labels: [String] = [], by amount: Double = 1) {
    precondition(family.type == .counter && labels.count == family.labels.count)
    state.withLock { $0.values[family.name, default: [:]][labels, default: 0] += amount }
  }

  /// Sets a gauge series, or a counter kept elsewhere (CPU seconds, cache hits) to its total.
  func set(_ family: Family, _ labels: [String] = [], to value: Double) {
    precondition(family.type != .histogram && labels.count == family.labels.count)
    state.withLock { $0.values[family.name, default: [:]][labels] = value }
  }

  /// Records one observation in a histogram series.
  func observe(_ family: Family, _ labels: [String] = [], _ value: Double) {
    precondition(family.type == .histogram && labels.count == family.labels.count)
    state.withLock { state in
      // Mutated in place: copying the series out and back would copy its counts every time.
      state.histograms[family.name, default: [:]][
        labels, default: HistogramSeries(bucketCount: family.buckets.count)
      ].record(value, bounds: family.buckets)
    }
  }

  /// The current value of a counter or gauge series (0 when never touched); for tests and checks.
  func value(_ family: Family, _ labels: [String] = []) -> Double {
    state.withLock { state in
      guard family.name != Self.requests.name else {
        return state.requests.counts.first { $0.labels == labels }?.value ?? 0
      }
      return state.values[family.name]?[labels] ?? 0
    }
  }

  /// Everything, in the Prometheus text format (version 0.0.4).
  func render() -> String {
    var snapshot = state.withLock { $0 }
    snapshot.values[Self.requests.name] = Dictionary(
      snapshot.requests.counts.map { ($0.labels, $0.value) }, uniquingKeysWith: +)
    snapshot.histograms[Self.requestDuration.name] = Dictionary(
      snapshot.requests.durations.map { ($0.labels, $0.series) }, uniquingKeysWith: { $1 })
    var out = ""
    for family in Self.families {
      out += "# HELP \(family.name) \(Self.escapeHelp(family.help))\n"
      out += "# TYPE \(family.name) \(family.type.rawValue)\n"
      switch family.type {
      case .counter, .gauge:
        let series = snapshot.values[family.name] ?? [:]
        if series.isEmpty && family.labels.isEmpty && !family.onlyWhenSet {
          out += "\(family.name) 0\n"
        }
        for (labels, value) in series.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
          out += "\(family.name)\(Self.labelText(family.labels, labels)) \(Self.number(value))\n"
        }
      case .histogram:
        let series = snapshot.histograms[family.name] ?? [:]
        for (labels, histogram) in series.sorted(by: {
          $0.key.lexicographicallyPrecedes($1.key)
        }) {
          for (index, bound) in family.buckets.enumerated() {
            let text = Self.labelText(family.labels + ["le"], labels + [Self.number(bound)])
            out += "\(family.name)_bucket\(text) \(histogram.counts[index])\n"
          }
          let inf = Self.labelText(family.labels + ["le"], labels + ["+Inf"])
          out += "\(family.name)_bucket\(inf) \(histogram.count)\n"
          let plain = Self.labelText(family.labels, labels)
          out += "\(family.name)_sum\(plain) \(Self.number(histogram.sum))\n"
          out += "\(family.name)_count\(plain) \(histogram.count)\n"
        }
      }
    }
    return out
  }

  private struct State {
    var values: [String: [[String]: Double]] = [:]
    var histograms: [String: [[String]: HistogramSeries]] = [:]
    /// `requests` and `requestDuration`, which every request updates.
    var requests = RequestTally(bounds: Metrics.requestDuration.buckets)
  }

  /// One answered request, in `requests` and `requestDuration`, under one lock and without
  /// building a label list (after the first of each route, status and caller). `route` is the
  /// route pattern (e.g. `/v1/images/{id}`), never the raw path, and `caller` a configured
  /// token's name or `anonymous`, so that the number of series stays bounded. The duration is
  /// by route only: a histogram per caller would multiply its buckets for little insight.
  func countRequest(
    route: String, status: Int, caller: String = APIToken.anonymous, seconds: Double
  ) {
    state.withLock { state in
      state.requests.count(.init(route: route, status: status, caller: caller), seconds: seconds)
    }
  }

  struct HistogramSeries {
    var counts: [Int]
    var count = 0
    var sum = 0.0
    init(bucketCount: Int) { counts = Array(repeating: 0, count: bucketCount) }

    /// Counts `value` in every bucket whose upper bound it does not exceed.
    mutating func record(_ value: Double, bounds: [Double]) {
      for (index, bound) in bounds.enumerated() where value <= bound {
        counts[index] += 1
      }
      count += 1
      sum += value
    }
  }

  /// `{a="x",b="y"}`, or nothing without labels. Values escape `\`, `"` and newline.
  static func labelText(_ names: [String], _ values: [String]) -> String {
    guard !names.isEmpty else { return "" }
    let pairs = zip(names, values).map { name, value in
      var escaped = ""
      for character in value.unicodeScalars {
        switch character {
        case "\\": escaped += "\\\\"
        case "\"": escaped += "\\\""
        case "\n": escaped += "\\n"
        default: escaped.unicodeScalars.append(character)
        }
      }
      return "\(name)=\"\(escaped)\""
    }
    return "{" + pairs.joined(separator: ",") + "}"
  }

  /// HELP text escapes `\` and newline.
  static func escapeHelp(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
  }

  /// Whole numbers without a fraction (`3`, not `3.0`); others as Swift prints them.
  static func number(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }
}
