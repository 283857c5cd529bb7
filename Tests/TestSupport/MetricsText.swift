/// A `/metrics` answer (Prometheus text format 0.0.4) read back by tests: its samples, and the
/// families and label names it exports.
public struct MetricsText: Sendable {
  /// One sample line: the series' name (a histogram's `_bucket`, `_sum`, `_count` included),
  /// its labels, and its value as written.
  public struct Sample: Sendable {
    public var name: String
    public var labels: [String: String]
    public var value: String
  }

  /// Every sample, in order.
  public let samples: [Sample]
  /// The families' `# TYPE` lines: name to type.
  public let types: [String: String]

  /// Reads `text`; lines that are not samples or `# TYPE` are skipped.
  public init(_ text: String) {
    var samples: [Sample] = []
    var types: [String: String] = [:]
    for line in text.split(separator: "\n").map(String.init) {
      if line.hasPrefix("# TYPE ") {
        let parts = line.split(separator: " ")
        if parts.count == 4 { types[String(parts[2])] = String(parts[3]) }
        continue
      }
      if line.hasPrefix("#") || line.isEmpty { continue }
      guard let space = line.lastIndex(of: " ") else { continue }
      let series = line[..<space]
      let value = String(line[line.index(after: space)...])
      guard let brace = series.firstIndex(of: "{") else {
        samples.append(Sample(name: String(series), labels: [:], value: value))
        continue
      }
      samples.append(
        Sample(
          name: String(series[..<brace]),
          labels: Self.labels(series[series.index(after: brace)...].dropLast()), value: value))
    }
    self.samples = samples
    self.types = types
  }

  /// `a="x",b="y"` as a dictionary (values unescaped).
  private static func labels(_ text: Substring) -> [String: String] {
    var labels: [String: String] = [:]
    var rest = text[...]
    while let equals = rest.firstIndex(of: "=") {
      let name = String(rest[..<equals]).trimmingPrefix(",")
      var value = ""
      var index = rest.index(equals, offsetBy: 2)  // past `="`
      while index < rest.endIndex, rest[index] != "\"" {
        if rest[index] == "\\", rest.index(after: index) < rest.endIndex {
          index = rest.index(after: index)
          value.append(rest[index] == "n" ? "\n" : rest[index])
        } else {
          value.append(rest[index])
        }
        index = rest.index(after: index)
      }
      labels[String(name)] = value
      rest = index < rest.endIndex ? rest[rest.index(after: index)...] : ""
    }
    return labels
  }

  /// The samples of the series named `name` whose value is not zero (`name 3`,
  /// `name{reason="crash"} 1`): what a test that expects nothing counted checks is empty.
  public func nonZero(_ name: String) -> [Sample] {
    samples.filter { $0.name == name && $0.value != "0" }
  }

  /// The label names the series `name` carries in any sample (`le` included for buckets).
  public func labelNames(of name: String) -> Set<String> {
    Set(samples.filter { $0.name == name }.flatMap(\.labels.keys))
  }

  /// Every series name sampled.
  public var names: Set<String> { Set(samples.map(\.name)) }
}
