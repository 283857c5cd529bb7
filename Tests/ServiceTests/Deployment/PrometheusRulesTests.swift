import Foundation
import TestSupport
import Testing

/// `deploy/prometheus` and `deploy/grafana` against Debian's promtool and against the service
/// itself: the rules load, every alert fires on its input series (and stays quiet on a healthy
/// service's), and every metric, label and label value the rules and the dashboard name is one
/// a freshly started service exports.
@Suite struct PrometheusRulesTests {
  static let rules = DeploymentTools.file("prometheus/alerts.yml")
  static let ruleTests = DeploymentTools.file("prometheus/alerts.test.yml")
  static let dashboard = DeploymentTools.file("grafana/artwork.json")

  @Test func promtoolAcceptsTheRulesAndTheScrapeConfiguration() async throws {
    let promtool = try await DeploymentTools.tool("promtool")
    let rules = try await DeploymentTools.run(promtool, ["check", "rules", Self.rules.path])
    #expect(rules.status == 0, "\(rules.output)\(rules.error)")
    let config = try await DeploymentTools.run(
      promtool, ["check", "config", DeploymentTools.file("prometheus/prometheus.yml").path])
    #expect(config.status == 0, "\(config.output)\(config.error)")
  }

  @Test func everyAlertFiresOnItsInputSeries() async throws {
    let promtool = try await DeploymentTools.tool("promtool")
    let run = try await DeploymentTools.run(promtool, ["test", "rules", Self.ruleTests.path])
    #expect(run.status == 0, "\(run.output)\(run.error)")
    // Each alert has a case that expects it firing.
    let tests = try #require(try await DeploymentTools.yaml(Self.ruleTests) as? [String: Any])
    var firing: Set<String> = []
    for test in tests["tests"] as? [[String: Any]] ?? [] {
      for check in test["alert_rule_test"] as? [[String: Any]] ?? [] {
        if let name = check["alertname"] as? String, !(check["exp_alerts"] as? [Any] ?? []).isEmpty
        {
          firing.insert(name)
        }
      }
    }
    let alerts = try await Self.ruleList().compactMap { $0["alert"] as? String }
    #expect(alerts.count >= 10)
    #expect(
      Set(alerts).subtracting(firing).isEmpty, "no case fires \(Set(alerts).subtracting(firing))")
  }

  @Test func rulesAndDashboardNameOnlyWhatAFreshServiceExports() async throws {
    let text = try await ServiceHarness.run { service in
      try await service.get("/metrics").text
    }
    let exported = MetricsText(text)
    #expect(exported.names.contains("artwork_ready"), "\(text)")
    let rules = try await Self.ruleList()
    let recorded = Self.recordedLabels(rules)
    var problems: [String] = []
    for rule in rules {
      guard let expr = rule["expr"] as? String else { continue }
      let name = rule["record"] as? String ?? rule["alert"] as? String ?? "?"
      problems += Self.problems(
        in: expr, at: "alerts.yml \(name)", exported: exported, recorded: recorded)
    }
    let board = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: Self.dashboard)) as? [String: Any])
    var queries = 0
    for (title, expr) in Self.queries(board) {
      queries += 1
      problems += Self.problems(
        in: expr, at: "dashboard \"\(title)\"", exported: exported, recorded: recorded)
    }
    #expect(queries >= 25)
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// The check itself finds each kind of mistake.
  @Test func theCheckNamesWhatIsNotExported() {
    let exported = MetricsText(
      """
      artwork_http_requests_total{route="/v1/artwork",status="200",caller="anonymous"} 0
      artwork_http_request_duration_seconds_bucket{route="/v1/artwork",le="0.005"} 0
      """)
    let recorded = ["artwork:x:rate5m": Set(["job", "instance", "route"])]
    let good = [
      #"sum by (route, status) (rate(artwork_http_requests_total{job="a", status=~"2.."}[5m]))"#,
      #"histogram_quantile(0.9, sum by (le) (rate(artwork_http_request_duration_seconds_bucket[$__rate_interval])))"#,
      #"sum by (route) (artwork:x:rate5m) > 0 and up{job="artwork"} == 0"#,
    ]
    for expr in good {
      #expect(
        Self.problems(in: expr, at: "", exported: exported, recorded: recorded).isEmpty, "\(expr)")
    }
    let bad = [
      "rate(artwork_http_request_total[5m])",  // no such metric
      #"artwork_http_requests_total{rout="/v1/artwork"}"#,  // no such label
      #"artwork_http_requests_total{route="/v1/artworks"}"#,  // no such value
      #"artwork_http_requests_total{status=~"5.."}"#,  // a pattern no value matches
      "sum by (reason) (artwork_http_requests_total)",  // grouped by a label it lacks
      "artwork:y:rate5m",  // not recorded
    ]
    for expr in bad {
      #expect(
        Self.problems(in: expr, at: "", exported: exported, recorded: recorded).count == 1,
        "\(expr)")
    }
  }

  // MARK: - Reading the files

  static func ruleList() async throws -> [[String: Any]] {
    let file = try #require(try await DeploymentTools.yaml(rules) as? [String: Any])
    let groups = file["groups"] as? [[String: Any]] ?? []
    return groups.flatMap { $0["rules"] as? [[String: Any]] ?? [] }
  }

  /// Each recorded series' labels: its expression's grouping labels and the target's.
  static func recordedLabels(_ rules: [[String: Any]]) -> [String: Set<String>] {
    var labels: [String: Set<String>] = [:]
    for rule in rules {
      guard let name = rule["record"] as? String, let expr = rule["expr"] as? String else {
        continue
      }
      labels[name] = Set(PromQLNames(expr).groupingLabels).union(["job", "instance"])
    }
    return labels
  }

  /// Every query of the dashboard with where it is: the panels' targets (rows' panels too) and
  /// the variables' `label_values(selector, label)`, written as a selector grouped by the label.
  static func queries(_ board: [String: Any]) -> [(String, String)] {
    var found: [(String, String)] = []
    func walk(_ panels: [[String: Any]]) {
      for panel in panels {
        let title = panel["title"] as? String ?? "?"
        for target in panel["targets"] as? [[String: Any]] ?? [] {
          if let expr = target["expr"] as? String { found.append((title, expr)) }
        }
        walk(panel["panels"] as? [[String: Any]] ?? [])
      }
    }
    walk(board["panels"] as? [[String: Any]] ?? [])
    let variables = (board["templating"] as? [String: Any])?["list"] as? [[String: Any]] ?? []
    for variable in variables {
      guard let query = variable["definition"] as? String, query.hasPrefix("label_values("),
        let comma = query.lastIndex(of: ",")
      else { continue }
      let selector = query.dropFirst("label_values(".count)[..<comma]
      let label = query[query.index(after: comma)...].dropLast().trimmingCharacters(
        in: .whitespaces)
      found.append(("variable \(variable["name"] ?? "?")", "sum by (\(label)) (\(selector))"))
    }
    return found
  }

  // MARK: - The check

  /// Labels every series has once Prometheus scraped it.
  static let targetLabels: Set<String> = ["job", "instance"]

  /// What `expression` names that `exported` lacks, each in words: a metric (not recorded by
  /// `recorded`, nor Prometheus' own `up`), a label of a selected metric, a value an `=`
  /// matcher wants or an `=~` matcher matches (Grafana's `$variables` aside), a grouping label
  /// none of its metrics carries.
  static func problems(
    in expression: String, at place: String, exported: MetricsText,
    recorded: [String: Set<String>]
  ) -> [String] {
    let names = PromQLNames(expression)
    var problems: [String] = []
    var available = targetLabels
    for selector in names.selectors {
      guard let metric = selector.metric else {
        problems.append("\(place): a selector without a metric name")
        continue
      }
      let labels: Set<String>
      if let known = recorded[metric] {
        labels = known
      } else if metric == "up" {
        labels = []
      } else if metric.contains(":") {
        problems.append("\(place): \(metric) is not recorded in alerts.yml")
        continue
      } else if exported.names.contains(metric) {
        labels = exported.labelNames(of: metric)
      } else {
        problems.append("\(place): \(metric) is not exported by the service")
        continue
      }
      available.formUnion(labels)
      for matcher in selector.matchers where !targetLabels.contains(matcher.label) {
        guard labels.contains(matcher.label) else {
          problems.append("\(place): \(metric) has no label \(matcher.label)")
          continue
        }
        guard recorded[metric] == nil, !matcher.value.contains("$") else { continue }
        let values = Set(
          exported.samples.filter { $0.name == metric }.compactMap { $0.labels[matcher.label] })
        switch matcher.op {
        case "=" where !values.contains(matcher.value):
          problems.append(
            "\(place): no \(metric) series has \(matcher.label)=\"\(matcher.value)\" "
              + "(exported: \(values.sorted().joined(separator: ", ")))")
        case "=~":
          let pattern = try? NSRegularExpression(pattern: "^(?:\(matcher.value))$")
          let matches = values.contains { value in
            pattern?.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
          }
          if !matches {
            problems.append(
              "\(place): no \(metric) series has a \(matcher.label) matching \"\(matcher.value)\"")
          }
        default:
          break
        }
      }
    }
    for label in names.groupingLabels where !available.contains(label) {
      problems.append("\(place): groups by \(label), which none of its metrics carries")
    }
    return problems
  }
}
