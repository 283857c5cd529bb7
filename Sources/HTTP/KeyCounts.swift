/// Counts by key with the largest at hand: a change and the lookup of the key with the largest
/// count each cost a few hash operations, however many keys there are (the keys of one count
/// are kept together, and the largest count is known). For the connections of each client
/// network, where the one that holds the most gives way first.
struct KeyCounts {
  /// Each key with a count above zero.
  private(set) var counts: [String: Int] = [:]
  /// The keys of each count above zero.
  private var keysOf: [Int: Set<String>] = [:]
  /// The largest count (0 when there is none).
  private(set) var largest = 0

  /// Counts one more for `key`.
  mutating func increment(_ key: String) {
    let old = counts[key, default: 0]
    move(key, from: old, to: old + 1)
  }

  /// Counts one less for `key` (nothing when it has none).
  mutating func decrement(_ key: String) {
    guard let old = counts[key] else { return }
    move(key, from: old, to: old - 1)
  }

  /// The count of `key`.
  subscript(key: String) -> Int { counts[key, default: 0] }

  /// A key with the largest count, and that count (nil when every count is zero).
  var top: (key: String, count: Int)? {
    guard largest > 0, let key = keysOf[largest]?.first else { return nil }
    return (key, largest)
  }

  /// Keys with a count above zero.
  var keys: Int { counts.count }

  private mutating func move(_ key: String, from old: Int, to new: Int) {
    if old > 0 {
      keysOf[old]?.remove(key)
      if keysOf[old]?.isEmpty == true { keysOf[old] = nil }
    }
    if new > 0 {
      counts[key] = new
      keysOf[new, default: []].insert(key)
      largest = max(largest, new)
    } else {
      counts[key] = nil
    }
    // Counts move by one, so when the largest empties the next is one below it (or none).
    while largest > 0, keysOf[largest] == nil { largest -= 1 }
  }
}
