import ArtworkCore

/// Reads variables out of an environment, collecting problems instead of stopping at the first,
/// and remembering which keys were read (a test checks that each one is documented).
struct ConfigReader {
  let environment: [String: String]
  private(set) var problems: [String] = []
  private(set) var keysRead: [String] = []

  init(environment: [String: String]) {
    self.environment = environment
  }

  /// The trimmed value of `key`, or nil when unset. An empty value counts as unset, so that
  /// `ARTWORK_API_TOKENS=` in a compose file means "none" rather than an error.
  mutating func text(_ key: String) -> String? {
    keysRead.append(key)
    guard let value = environment[key].map(HeaderSyntax.trimmed), !value.isEmpty else {
      return nil
    }
    return value
  }

  /// Records a problem with `key`, naming its value unless it is a secret.
  mutating func refuse(_ key: String, _ value: String?, _ accepted: String, secret: Bool = false) {
    let shown: String
    switch (value, secret) {
    case (nil, _): shown = "\(key) is not set"
    case (_, true): shown = "\(key) (value hidden)"
    case (let value?, false): shown = "\(key)=\"\(value)\""
    }
    problems.append("\(shown): \(accepted)")
  }

  /// Records a problem that is not about one value's syntax.
  mutating func problem(_ sentence: String) {
    problems.append(sentence)
  }

  /// Parses `key` with `parse`, or answers `fallback` when unset or invalid (a problem is
  /// recorded for invalid values, describing them with `accepted`).
  mutating func value<T>(
    _ key: String, default fallback: T, accepted: String, secret: Bool = false,
    _ parse: (String) -> T?
  ) -> T {
    guard let raw = text(key) else { return fallback }
    guard let parsed = parse(raw) else {
      refuse(key, raw, accepted, secret: secret)
      return fallback
    }
    return parsed
  }

  /// An integer within `range`.
  mutating func integer(_ key: String, default fallback: Int, range: ClosedRange<Int>) -> Int {
    value(
      key, default: fallback,
      accepted: "expected a whole number from \(range.lowerBound) to \(range.upperBound)"
    ) { text in
      guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(text), range.contains(n)
      else { return nil }
      return n
    }
  }

  /// `0`, `1`, `true` or `false` (case-insensitive).
  mutating func boolean(_ key: String, default fallback: Bool) -> Bool {
    value(key, default: fallback, accepted: "expected 0, 1, true or false") { text in
      switch text.lowercased() {
      case "1", "true": true
      case "0", "false": false
      default: nil
      }
    }
  }

  /// A duration in the one syntax every duration variable shares: whole numbers, each with a
  /// unit (`ms`, `s`, `m`, `h`, `d`), optionally chained largest first (`1h30m`), or a bare
  /// `0`. A bare number is refused rather than guessed: `30` could mean seconds or days. The
  /// result must lie in `range`.
  mutating func duration(
    _ key: String, default fallback: Duration, range: ClosedRange<Duration>, rangeText: String
  ) -> Duration {
    value(
      key, default: fallback,
      accepted: "expected a whole number with a unit (ms, s, m, h or d, as in 1500ms, 8s, 10m, "
        + "12h, 30d or 1h30m), \(rangeText)"
    ) { text in
      guard let d = DurationUnit.parse(text), range.contains(d) else { return nil }
      return d
    }
  }
}

/// The units a duration variable may use.
enum DurationUnit: String, CaseIterable {
  case milliseconds = "ms"
  case seconds = "s"
  case minutes = "m"
  case hours = "h"
  case days = "d"

  func duration(_ count: Int) -> Duration? {
    let (factor, inMilliseconds): (Int, Bool) =
      switch self {
      case .milliseconds: (1, true)
      case .seconds: (1, false)
      case .minutes: (60, false)
      case .hours: (3600, false)
      case .days: (86400, false)
      }
    let (product, overflow) = count.multipliedReportingOverflow(by: factor)
    guard !overflow else { return nil }
    return inMilliseconds ? .milliseconds(product) : .seconds(product)
  }

  /// `"1500ms"`, `"8s"`, `"1h30m"`, `"0"`; nil for anything else (a bare non-zero number, an
  /// unknown unit, a unit twice or out of order, an overflow).
  static func parse(_ text: String) -> Duration? {
    if text == "0" { return .zero }
    var rest = Substring(text.lowercased())
    var total = Duration.zero
    var previous: DurationUnit?
    while !rest.isEmpty {
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      rest = rest.dropFirst(digits.count)
      let letters = rest.prefix { $0.isASCII && $0.isLetter }
      rest = rest.dropFirst(letters.count)
      guard !digits.isEmpty, let count = Int(digits),
        let unit = DurationUnit(rawValue: String(letters)), let part = unit.duration(count)
      else { return nil }
      if let previous {
        guard unit.rank < previous.rank else { return nil }
      }
      previous = unit
      total += part
      guard total < .seconds(Int64.max / 2) else { return nil }
    }
    return total
  }

  /// 0 for milliseconds up to 4 for days: a chained duration goes from larger to smaller.
  private var rank: Int { DurationUnit.allCases.firstIndex(of: self)! }
}
