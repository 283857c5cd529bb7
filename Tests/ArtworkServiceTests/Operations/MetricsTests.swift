import Foundation
import Observability
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

@Suite struct MetricsTests {
  @Test func rendersEveryFamilyWithHelpAndType() {
    let text = Metrics().render()
    for family in Metrics.families {
      #expect(text.contains("# HELP \(family.name) "))
      #expect(text.contains("# TYPE \(family.name) \(family.type.rawValue)\n"))
    }
    // Unlabelled counters and gauges show up at zero before anything happened.
    #expect(text.contains("\nartwork_created_total 0\n"))
    #expect(text.contains("\nartwork_workers_busy 0\n"))
    #expect(text.hasSuffix("\n"))
  }

  @Test func countersGaugesAndLabels() {
    let metrics = Metrics()
    metrics.countRequest(route: "/v1/artwork", status: 201, seconds: 0.030)
    metrics.countRequest(route: "/v1/artwork", status: 201, seconds: 0.700)
    metrics.countRequest(route: "/v1/images/{id}", status: 404, seconds: 0.000_1)
    metrics.recordArtworkCreated(bytes: 1500)
    metrics.recordArtworkCreated(bytes: 500)
    metrics.recordFetch(outcome: "ok")
    metrics.recordFetch(outcome: "forbidden-address")
    metrics.recordCacheLookup(hit: true)
    metrics.recordCacheLookup(hit: false)
    metrics.recordCacheLookup(hit: false)
    metrics.recordQueueRejection(caller: "relay")
    metrics.update(pool: PoolStats(busy: 2, queued: 5), capacity: 4, queueCapacity: 64)
    let text = metrics.render()
    let lines = Set(text.split(separator: "\n").map(String.init))
    for expected in [
      #"artwork_http_requests_total{route="/v1/artwork",status="201",caller="anonymous"} 2"#,
      #"artwork_http_requests_total{route="/v1/images/{id}",status="404",caller="anonymous"} 1"#,
      "artwork_created_total 2",
      "artwork_stored_bytes_total 2000",
      #"artwork_source_fetches_total{outcome="forbidden-address"} 1"#,
      #"artwork_source_fetches_total{outcome="ok"} 1"#,
      #"artwork_cache_lookups_total{result="hit"} 1"#,
      #"artwork_cache_lookups_total{result="miss"} 2"#,
      "artwork_queue_rejections_total 1",
      #"artwork_caller_refusals_total{caller="relay"} 1"#,
      "artwork_workers_busy 2",
      "artwork_queue_waiting 5",
      "artwork_workers 4",
      "artwork_queue_capacity 64",
      #"artwork_http_request_duration_seconds_bucket{route="/v1/artwork",le="0.025"} 0"#,
      #"artwork_http_request_duration_seconds_bucket{route="/v1/artwork",le="0.05"} 1"#,
      #"artwork_http_request_duration_seconds_bucket{route="/v1/artwork",le="1"} 2"#,
      #"artwork_http_request_duration_seconds_bucket{route="/v1/artwork",le="+Inf"} 2"#,
      #"artwork_http_request_duration_seconds_sum{route="/v1/artwork"} 0.73"#,
      #"artwork_http_request_duration_seconds_count{route="/v1/artwork"} 2"#,
      #"artwork_http_request_duration_seconds_bucket{route="/v1/images/{id}",le="0.005"} 1"#,
    ] {
      #expect(lines.contains(expected), "missing: \(expected)")
    }
    #expect(metrics.value(Metrics.cacheLookups, ["miss"]) == 2)
  }

  /// Labelled families list their known series at zero before the first event.
  @Test func knownSeriesStartAtZero() {
    let text = Metrics(routes: ["/v1/artwork"]).render()
    let lines = Set(text.split(separator: "\n").map(String.init))
    var expected = [
      #"artwork_http_requests_total{route="/v1/artwork",status="200",caller="anonymous"} 0"#,
      #"artwork_http_request_duration_seconds_count{route="/v1/artwork"} 0"#,
      #"artwork_cache_lookups_total{result="hit"} 0"#,
      #"artwork_cache_lookups_total{result="miss"} 0"#,
      #"artwork_source_fetches_total{outcome="ok"} 0"#,
      #"artwork_content_artwork_total{status="pending"} 0"#,
      // What the alerts of deploy/prometheus watch: a series born at 1 would hide its first
      // event from rate().
      #"artwork_http_requests_total{route="/v1/artwork",status="500",caller="anonymous"} 0"#,
      #"artwork_http_requests_total{route="/v1/artwork",status="503",caller="anonymous"} 0"#,
      #"artwork_worker_failures_total{reason="crash"} 0"#,
      #"artwork_worker_failures_total{reason="timeout"} 0"#,
      #"artwork_worker_failures_total{reason="memory"} 0"#,
      #"artwork_worker_refusals_total{reason="crash"} 0"#,
      #"artwork_worker_interruptions_total{cause="killed"} 0"#,
      #"artwork_worker_interruptions_total{cause="starved"} 0"#,
      #"artwork_result_cache_failures_total{operation="read"} 0"#,
      #"artwork_result_cache_failures_total{operation="write"} 0"#,
      "artwork_worker_restarts_total 0",
      "artwork_log_lines_dropped_total 0",
      "artwork_queue_rejections_total 0",
    ]
    for stage in Metrics.stages {
      expected.append(#"artwork_stage_duration_seconds_count{stage="\#(stage)"} 0"#)
      expected.append(#"artwork_stage_duration_seconds_bucket{stage="\#(stage)",le="+Inf"} 0"#)
    }
    for line in expected { #expect(lines.contains(line), "missing: \(line)") }
  }

  /// The callers known at start-up (and after a reload) have their series at zero; seeding
  /// again keeps what was counted.
  @Test func knownCallersStartAtZero() {
    let metrics = Metrics()
    metrics.seed(callers: ["relay", "anonymous"])
    metrics.recordQueueRejection(caller: "relay")
    metrics.seed(callers: ["relay", "plex", "anonymous"])
    let lines = Set(metrics.render().split(separator: "\n").map(String.init))
    for line in [
      #"artwork_caller_refusals_total{caller="relay"} 1"#,
      #"artwork_caller_refusals_total{caller="plex"} 0"#,
      #"artwork_caller_refusals_total{caller="anonymous"} 0"#,
      #"artwork_api_rate_limited_total{caller="relay"} 0"#,
      #"artwork_api_rate_limited_total{caller="plex"} 0"#,
    ] {
      #expect(lines.contains(line), "missing: \(line)")
    }
  }

  /// Free space is a filesystem's: on S3 the families are declared without a sample, not 0
  /// (which a free-space alert would read as a full disk).
  @Test func storageSpaceIsSampledOnlyWhereStorageHasIt() {
    let metrics = Metrics()
    metrics.updateStorage(ready: true, space: nil)
    var lines = Set(metrics.render().split(separator: "\n").map(String.init))
    #expect(lines.contains("artwork_ready 1"))
    #expect(lines.contains("# TYPE artwork_storage_free_bytes gauge"))
    #expect(!lines.contains { $0.hasPrefix("artwork_storage_free_bytes ") })
    #expect(!lines.contains { $0.hasPrefix("artwork_storage_min_free_bytes ") })
    metrics.updateStorage(ready: false, space: (free: 5_000_000, kept: 1_000_000))
    lines = Set(metrics.render().split(separator: "\n").map(String.init))
    #expect(lines.contains("artwork_ready 0"))
    #expect(lines.contains("artwork_storage_free_bytes 5000000"))
    #expect(lines.contains("artwork_storage_min_free_bytes 1000000"))
  }

  /// The operations page's table lists every family, with its labels and type, and nothing else.
  @Test func theOperationsPageListsEveryFamily() throws {
    let page = try String(
      contentsOf: Repository.root.appendingPathComponent("docs/operations.md"), encoding: .utf8)
    let rows = page.split(separator: "\n").filter {
      $0.hasPrefix("| `artwork_") || $0.hasPrefix("| `process_")
    }
    let listed = rows.map { row in
      String(row.dropFirst(3).prefix { $0 != "`" && $0 != "{" })
    }
    #expect(listed == Metrics.families.map(\.name))
    for (row, family) in zip(rows, Metrics.families) {
      let labels = family.labels.isEmpty ? "" : "{" + family.labels.joined(separator: ",") + "}"
      #expect(row.hasPrefix("| `\(family.name)\(labels)` | \(family.type.rawValue) |"), "\(row)")
    }
  }

  @Test func everySampleLineIsWellFormed() {
    let metrics = Metrics()
    metrics.countRequest(route: "/a", status: 200, seconds: 1)
    metrics.recordFetch(outcome: "x")
    let declared = Set(Metrics.families.map(\.name))
    for line in metrics.render().split(separator: "\n") where !line.hasPrefix("#") {
      let parts = line.split(separator: " ")
      #expect(parts.count == 2, "\(line)")
      let name = String(parts[0].prefix { $0 != "{" })
      let base = ["_bucket", "_sum", "_count"].reduce(name) { name, suffix in
        name.hasSuffix(suffix) && !declared.contains(name)
          ? String(name.dropLast(suffix.count)) : name
      }
      #expect(declared.contains(base), "\(line)")
      #expect(Double(parts[1]) != nil, "\(line)")
    }
  }
}
