import Observability

/// The two series every request updates, `artwork_http_requests_total` (by route, status and
/// caller) and `artwork_http_request_duration_seconds` (by route), kept so that a request finds
/// both with one dictionary lookup of a key hashed from an integer and two lengths: not three
/// lookups hashing lists of label strings, as the other families' series are found. Lives in
/// `Metrics`, under a lock of its own; `render` writes it with the other series.
struct RequestTally {
  /// What one request is counted by. Hashed cheaply (the status and the lengths of the two
  /// strings): the keys are few, and equal hashes are told apart by comparing the strings.
  struct Key: Hashable {
    let route: String
    let status: Int
    let caller: String

    func hash(into hasher: inout Hasher) {
      hasher.combine(status)
      hasher.combine(route.utf8.count)
      hasher.combine(caller.utf8.count)
    }
  }

  /// The request duration histogram's bucket bounds.
  let bounds: [Double]
  /// Where each key's count and its route's durations are.
  private var slots: [Key: (count: Int, duration: Int)] = [:]
  /// The counts, with their labels (route, status, caller).
  private(set) var counts: [(labels: [String], value: Double)] = []
  /// The durations by route, with their labels (route).
  private(set) var durations: [(labels: [String], series: HistogramSeries)] = []
  private var durationOfRoute: [String: Int] = [:]

  init(bounds: [Double]) {
    self.bounds = bounds
  }

  /// One request of `key` that took `seconds`.
  mutating func count(_ key: Key, seconds: Double) {
    let slot = slots[key] ?? makeSlot(key)
    counts[slot.count].value += 1
    durations[slot.duration].series.record(seconds, bounds: bounds)
  }

  /// Makes `key`'s series at zero (and its route's durations, when new), without touching
  /// series that exist.
  @discardableResult
  mutating func makeSlot(_ key: Key) -> (count: Int, duration: Int) {
    if let slot = slots[key] { return slot }
    let duration: Int
    if let known = durationOfRoute[key.route] {
      duration = known
    } else {
      duration = durations.count
      durations.append(([key.route], HistogramSeries(bucketCount: bounds.count)))
      durationOfRoute[key.route] = duration
    }
    counts.append(([key.route, String(key.status), key.caller], 0))
    let slot = (count: counts.count - 1, duration: duration)
    slots[key] = slot
    return slot
  }
}
