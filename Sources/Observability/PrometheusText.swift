import Foundation

/// The Prometheus text exposition format, version 0.0.4.
public enum PrometheusText {
  /// `samples` of `families`, in the order of `families`: each one's `# HELP` and `# TYPE`,
  /// then its series in the order of their label values. An unlabelled counter or gauge
  /// without a sample shows 0, unless it is `onlyWhenSet`.
  public static func render(_ families: [MetricFamily], _ samples: MetricSamples) -> String {
    var out = ""
    for family in families {
      out += "# HELP \(family.name) \(escapeHelp(family.help))\n"
      out += "# TYPE \(family.name) \(family.type.rawValue)\n"
      switch family.type {
      case .counter, .gauge:
        let series = samples.values[family.name] ?? [:]
        if series.isEmpty && family.labels.isEmpty && !family.onlyWhenSet {
          out += "\(family.name) 0\n"
        }
        for (labels, value) in series.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
          out += "\(family.name)\(labelText(family.labels, labels)) \(number(value))\n"
        }
      case .histogram:
        let series = samples.histograms[family.name] ?? [:]
        for (labels, histogram) in series.sorted(by: {
          $0.key.lexicographicallyPrecedes($1.key)
        }) {
          for (index, bound) in family.buckets.enumerated() {
            let text = labelText(family.labels + ["le"], labels + [number(bound)])
            out += "\(family.name)_bucket\(text) \(histogram.counts[index])\n"
          }
          let inf = labelText(family.labels + ["le"], labels + ["+Inf"])
          out += "\(family.name)_bucket\(inf) \(histogram.count)\n"
          let plain = labelText(family.labels, labels)
          out += "\(family.name)_sum\(plain) \(number(histogram.sum))\n"
          out += "\(family.name)_count\(plain) \(histogram.count)\n"
        }
      }
    }
    return out
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
