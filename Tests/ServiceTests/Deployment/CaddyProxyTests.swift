import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `deploy/Caddyfile` run by Debian's caddy on loopback in front of the service, as a phone
/// meets it: https from Caddy's local CA (`tls internal`: the variant adds only that, the
/// ports, loopback binding and no admin endpoint), HTTP/2, a hosted https URL that loads with
/// its immutable cache headers, the service's own 413 for a too large upload, /metrics refused,
/// and the client named in the service's log through X-Forwarded-For.
@Suite struct CaddyProxyTests {
  /// The client's address as Caddy sees it (curl binds to it): what the service should log.
  static let client = "127.0.0.5"

  /// The Caddyfile as shipped, with test-only global options and `tls internal` added.
  static func variant(httpPort: Int, httpsPort: Int) throws -> String {
    let shipped = try String(contentsOf: DeploymentTools.file("Caddyfile"), encoding: .utf8)
    let global = "\n{\n\tservers {"
    let site = "\n{$ARTWORK_SITE:img.example.org} {\n"
    guard shipped.contains(global), shipped.contains(site) else {
      throw PythonToolError("deploy/Caddyfile changed shape: update CaddyProxyTests.variant")
    }
    return
      shipped
      .replacingOccurrences(
        of: global,
        with: """

          {
          \tadmin off
          \thttp_port \(httpPort)
          \thttps_port \(httpsPort)
          \tdefault_bind 127.0.0.1
          \tlocal_certs
          \tskip_install_trust
          \tservers {
          """
      )
      .replacingOccurrences(of: site, with: site + "\ttls internal\n")
  }

  /// Caddy running the shipped file in front of a service, as a phone reaches it.
  struct Proxied: Sendable {
    let service: ServiceHarness
    let caddy: ServiceProcess
    let home: URL
    /// `https://localhost:PORT`.
    let origin: String
    let httpsPort: Int
    /// Caddy's local CA, which the clients trust alone.
    let root: String
    let curl: String

    /// curl as a phone: over TLS (HTTP/2 unless `arguments` say otherwise), trusting Caddy's
    /// local CA only, from `client`.
    func fetch(_ arguments: [String]) async throws -> (status: Int32?, output: String) {
      let run = try await DeploymentTools.run(
        curl,
        [
          "--silent", "--show-error", "--cacert", root, "--interface", CaddyProxyTests.client,
          "--resolve", "localhost:\(httpsPort):127.0.0.1", "--max-time", "60",
        ] + (arguments.contains("--http1.1") ? [] : ["--http2"]) + arguments)
      return (run.status, run.output + run.error)
    }
  }

  /// Starts a service with `environment` and the shipped Caddyfile in front of it (`variant`),
  /// waits until Caddy proxies `/healthz`, runs `body`, and stops both.
  static func withCaddy(
    _ environment: [String: String] = [:], logSink: (@Sendable (String) -> Void)? = nil,
    _ body: (Proxied) async throws -> Void
  ) async throws {
    let caddy = try await DeploymentTools.tool("caddy")
    let curl = try await DeploymentTools.tool("curl")
    let (httpPort, httpsPort) = (ServiceProcess.freePort(), ServiceProcess.freePort())
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-caddy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let config = home.appendingPathComponent("Caddyfile")
    try Self.variant(httpPort: httpPort, httpsPort: httpsPort)
      .write(to: config, atomically: true, encoding: .utf8)
    let origin = "https://localhost:\(httpsPort)"
    let root = home.appendingPathComponent("data/caddy/pki/authorities/local/root.crt").path
    var settings = ["ARTWORK_PUBLIC_URL": origin]
    settings.merge(environment) { $1 }
    try await ServiceHarness.run(settings, logSink: logSink) { service in
      let proxy = try ServiceProcess(
        executable: caddy, ["run", "--config", config.path, "--adapter", "caddyfile"],
        environment: [
          "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
          "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
          "ARTWORK_SITE": "localhost", "ARTWORK_UPSTREAM": "127.0.0.1:\(service.port)",
        ])
      let proxied = Proxied(
        service: service, caddy: proxy, home: home, origin: origin, httpsPort: httpsPort,
        root: root, curl: curl)
      // Ready once Caddy has made its CA and proxies /healthz (bounded wait).
      var ready = false
      for _ in 0..<300 where !ready {
        if FileManager.default.fileExists(atPath: root) {
          let health = try await proxied.fetch([
            "-o", "/dev/null", "-w", "%{http_code}", "\(origin)/healthz",
          ])
          ready = health.output == "200"
        }
        if !ready {
          #expect(await proxy.exitStatus(within: .zero) == nil, "\(proxy.errorOutput)")
          try await Task.sleep(for: .milliseconds(100))
        }
      }
      defer { proxy.send(signal: SIGKILL) }
      try #require(ready, "caddy did not proxy /healthz: \(proxy.errorOutput)")
      try await body(proxied)
      proxy.send(signal: SIGTERM)
      #expect(await proxy.exitStatus(within: .seconds(30)) != nil)
    }
  }

  @Test func aPhoneMeetsTheServiceThroughCaddy() async throws {
    let lines = Locked<[String]>([])
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    // The service's defaults trust a proxy on its own host: nothing to set for Caddy.
    try await Self.withCaddy(logSink: sink) { proxied in
      let (service, home, origin) = (proxied.service, proxied.home, proxied.origin)
      let fetch = proxied.fetch
      let answer = "\n%{http_version} %{http_code} %{content_type}"

      // An upload answers a hosted https URL under Caddy's origin. The client's own
      // X-Forwarded-For is dropped by Caddy: the service logs the address Caddy saw.
      let upload = try await fetch([
        "-F", "image=@\(Fixtures.path("coffee.jpg"))", "-F", "shape=poster",
        "-H", "X-Forwarded-For: 203.0.113.66", "-H", "X-Request-Id: through-caddy",
        "-w", answer, "\(origin)/v1/artwork",
      ])
      let (created, createdLine) = Self.split(upload.output)
      #expect(createdLine.hasPrefix("2 201 application/json"), "\(upload.output)")
      let json = try JSONSerialization.jsonObject(with: Data(created.utf8)) as? [String: Any]
      let imageURL = try #require(json?["image_url"] as? String, "\(created)")
      #expect(imageURL.hasPrefix("\(origin)/v1/images/"), "\(imageURL)")

      // The hosted URL loads through Caddy over HTTP/2, a JPEG with the immutable headers.
      let headers = home.appendingPathComponent("headers").path
      let body = home.appendingPathComponent("image.jpg")
      let image = try await fetch([
        "-D", headers, "-o", body.path, "-w", "%{http_version} %{http_code} %{content_type}",
        imageURL,
      ])
      #expect(image.output == "2 200 image/jpeg", "\(image.output)")
      let fields = try String(contentsOfFile: headers, encoding: .utf8).lowercased()
      #expect(fields.contains("cache-control: public, max-age=31536000, immutable"), "\(fields)")
      #expect(fields.contains("etag: \""), "\(fields)")
      #expect(fields.contains("alt-svc: h3="), "HTTP/3 offered: \(fields)")
      #expect(Array(try Data(contentsOf: body).prefix(3)) == [0xFF, 0xD8, 0xFF])

      // /metrics is the service's (Prometheus scrapes it there), refused from outside.
      #expect(try await service.get("/metrics").status == 200)
      for path in ["/metrics", "/metrics?format=text", "/%6Detrics", "/metrics/", "/METRICS"] {
        let outside = try await fetch(["-w", answer, "\(origin)\(path)"])
        #expect(!outside.output.contains("artwork_build_info"), "\(path): \(outside.output)")
        #expect(Self.split(outside.output).1.hasPrefix("2 404"), "\(path): \(outside.output)")
      }

      // The service's log names the phone's address, from Caddy's X-Forwarded-For.
      var logged: [String: Any]?
      for _ in 0..<500 where logged == nil {
        logged = ServiceLogTests.objects(lines.withLock { $0 }).first {
          $0["msg"] as? String == "request" && $0["request_id"] as? String == "through-caddy"
        }
        if logged == nil { try await Task.sleep(for: .milliseconds(10)) }
      }
      #expect(logged?["client"] as? String == Self.client, "\(String(describing: logged))")
    }
  }

  /// A too large upload gets the service's own 413 problem every time, over HTTP/1.1 (with
  /// and without `Expect: 100-continue`) and HTTP/2: Caddy streams the body on, and the
  /// service answers a proxy only once it has read and dropped it, so no answer overtakes a
  /// body and is reset away (with the answer sent from the head, 3 to 4 in 20 were lost).
  @Test func aTooLargeUploadGetsTheServicesOwn413EveryTime() async throws {
    try await Self.withCaddy { proxied in
      let large = proxied.home.appendingPathComponent("large.jpg")
      try Data(repeating: 0xFF, count: 3_000_000).write(to: large)
      for protocolArguments in [["--http1.1"], ["--http1.1", "-H", "Expect:"], ["--http2"]] {
        var answers: [String: Int] = [:]
        for _ in 0..<20 {
          let refused = try await proxied.fetch(
            protocolArguments + [
              "--data-binary", "@\(large.path)", "-H", "Content-Type: image/jpeg",
              "-w", "\n%{http_code} %{content_type}", "\(proxied.origin)/v1/artwork",
            ])
          let (problem, line) = Self.split(refused.output)
          let whole = problem.contains("urn:artwork:problem:payload-too-large")
          answers[line + (whole ? "" : " without the problem"), default: 0] += 1
        }
        #expect(
          answers == ["413 application/problem+json": 20], "\(protocolArguments): \(answers)")
      }
    }
  }

  /// Twelve strangers over TLS each declare a 64 MB upload, send 60 MB of it and stall. Caddy
  /// streams what comes to the service, which reads and drops it (no token: a 401 once the
  /// body is in), so Caddy holds a small buffer per upload, not the upload: its memory grows
  /// by at most 200 MB (with `buffer_requests`, as shipped before, 1,158 MB).
  @Test func stalledUploadsCostCaddyNoMoreThanABufferEach() async throws {
    let token = "relay-token-0123456789abcdef"
    try await Self.withCaddy(["ARTWORK_API_TOKENS": "relay:\(token)"]) { proxied in
      let script = Repository.root.appendingPathComponent(
        "Tests/ServiceTests/Deployment/Fixtures/stalled_uploads.py")
      let run = try await DeploymentTools.run(
        "/usr/bin/python3",
        [
          script.path, "--port", "\(proxied.httpsPort)", "--cafile", proxied.root,
          "--pid", "\(proxied.caddy.pid)", "--connections", "12", "--declared", "64000000",
          "--send", "60000000",
        ], timeout: .seconds(300))
      #expect(run.status == 0, "\(run.output)\(run.error)")
      let figures = try #require(
        try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
        "\(run.output)\(run.error)")
      let before = try #require(figures["rss_before_mb"] as? Double)
      let peak = try #require(figures["rss_peak_mb"] as? Double)
      let sent = try #require(figures["sent_bytes"] as? Int)
      #expect(sent == 12 * 60_000_000, "every stranger sent its 60 MB: \(figures)")
      #expect(peak - before <= 200, "\(figures)")
      // The relay is served meanwhile.
      let upload = try await proxied.fetch([
        "-F", "image=@\(Fixtures.path("coffee.jpg"))", "-H", "Authorization: Bearer \(token)",
        "-o", "/dev/null", "-w", "%{http_code}", "\(proxied.origin)/v1/artwork",
      ])
      #expect(upload.output == "201", "\(upload.output)")
    }
  }

  /// curl's output with `-w answer`: the body, and the last line curl wrote after it.
  static func split(_ output: String) -> (String, String) {
    guard let newline = output.lastIndex(of: "\n") else { return ("", output) }
    return (String(output[..<newline]), String(output[output.index(after: newline)...]))
  }
}
