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
    metrics.recordRequest(route: "/v1/artwork", status: 201, duration: .milliseconds(30))
    metrics.recordRequest(route: "/v1/artwork", status: 201, duration: .milliseconds(700))
    metrics.recordRequest(route: "/v1/images/{id}", status: 404, duration: .microseconds(100))
    metrics.recordArtworkCreated(bytes: 1500)
    metrics.recordArtworkCreated(bytes: 500)
    metrics.recordFetch(outcome: "ok")
    metrics.recordFetch(outcome: "forbidden-address")
    metrics.recordCacheLookup(hit: true)
    metrics.recordCacheLookup(hit: false)
    metrics.recordCacheLookup(hit: false)
    metrics.recordQueueRejection()
    metrics.update(pool: PoolStats(busy: 2, queued: 5))
    let text = metrics.render()
    let lines = Set(text.split(separator: "\n").map(String.init))
    for expected in [
      #"artwork_http_requests_total{route="/v1/artwork",status="201"} 2"#,
      #"artwork_http_requests_total{route="/v1/images/{id}",status="404"} 1"#,
      "artwork_created_total 2",
      "artwork_stored_bytes_total 2000",
      #"artwork_source_fetches_total{outcome="forbidden-address"} 1"#,
      #"artwork_source_fetches_total{outcome="ok"} 1"#,
      #"artwork_cache_lookups_total{result="hit"} 1"#,
      #"artwork_cache_lookups_total{result="miss"} 2"#,
      "artwork_queue_rejections_total 1",
      "artwork_workers_busy 2",
      "artwork_queue_waiting 5",
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

  @Test func everySampleLineIsWellFormed() {
    let metrics = Metrics()
    metrics.recordRequest(route: "/a", status: 200, duration: .seconds(1))
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

  @Test func labelValuesAreEscaped() {
    #expect(
      Metrics.labelText(["a", "b"], ["back\\slash \"quoted\"", "two\nlines"])
        == #"{a="back\\slash \"quoted\"",b="two\nlines"}"#)
    #expect(Metrics.escapeHelp("a\\b\nc") == #"a\\b\nc"#)
    #expect(Metrics.number(3) == "3")
    #expect(Metrics.number(0.25) == "0.25")
    #expect(Metrics.number(.infinity) == "+Inf")
  }
}
