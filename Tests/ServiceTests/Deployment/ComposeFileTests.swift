import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `deploy/compose.yaml` against the Compose Specification's JSON schema (as docker-compose
/// 1.29.2 ships it, through jsonschema: `scripts/deploy-tools`), and against what the stack
/// needs: health checks and stop grace on every service, the service's settings accepted by its
/// own configuration reader, Caddy as the one trusted proxy, the bucket SeaweedFS makes.
@Suite struct ComposeFileTests {
  static let compose = DeploymentTools.file("compose.yaml")

  /// The schema's complaints about `file`, one a line (none: valid).
  static func schemaErrors(_ file: URL) async throws -> [String] {
    let bin = try await DeploymentTools.venv()
    let schema = URL(fileURLWithPath: bin).deletingLastPathComponent()
      .appendingPathComponent("compose_spec.json").path
    let script = """
      import json, sys, yaml, jsonschema
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft201909Validator.check_schema(schema)
      document = yaml.safe_load(open(sys.argv[2]))
      for error in jsonschema.Draft201909Validator(schema).iter_errors(document):
          print("/".join(map(str, error.absolute_path)) + ": " + error.message)
      """
    let run = try await DeploymentTools.run(bin + "/python", ["-c", script, schema, file.path])
    guard run.status == 0 else { throw PythonToolError("jsonschema failed: \(run.error)") }
    return run.output.split(separator: "\n").map(String.init)
  }

  @Test func validAgainstTheComposeSpecification() async throws {
    #expect(try await Self.schemaErrors(Self.compose) == [])
    // The same check refuses a misspelt key.
    let folder = Fixtures.temporaryDirectory("artwork-compose")
    defer { try? FileManager.default.removeItem(at: folder) }
    let broken = folder.appendingPathComponent("compose.yaml")
    try String(contentsOf: Self.compose, encoding: .utf8)
      .replacingOccurrences(of: "stop_grace_period: 30s", with: "stop_grace_perod: 30s")
      .write(to: broken, atomically: true, encoding: .utf8)
    let errors = try await Self.schemaErrors(broken)
    #expect(errors.contains { $0.contains("stop_grace_perod") }, "\(errors)")
  }

  /// `${NAME:?message}` as compose fills it in from deploy/.env (here: test values).
  static func interpolated(_ value: String) -> String {
    let values = [
      "ARTWORK_SITE": "img.example.org", "ARTWORK_API_TOKENS": "relay:relay-token-0123456789",
      "S3_ACCESS_KEY": "artwork", "S3_SECRET_KEY": "secret-0123456789",
    ]
    var text = value
    while let start = text.range(of: "${"), let end = text[start.upperBound...].firstIndex(of: "}")
    {
      let name = String(text[start.upperBound..<end].prefix { $0 != ":" })
      text.replaceSubrange(start.lowerBound...end, with: values[name] ?? "UNSET-\(name)")
    }
    return text
  }

  @Test func theStackHoldsTogether() async throws {
    let file = try #require(try await DeploymentTools.yaml(Self.compose) as? [String: Any])
    let services = try #require(file["services"] as? [String: [String: Any]])
    #expect(Set(services.keys) == ["artwork", "caddy", "seaweedfs"])
    for (name, service) in services {
      let check = service["healthcheck"] as? [String: Any]
      #expect((check?["test"] as? [String])?.first == "CMD", "\(name) has no health check")
      #expect(service["stop_grace_period"] as? String == "30s", "\(name)")
      #expect(service["restart"] as? String == "unless-stopped", "\(name)")
    }
    // Named volumes are declared; Caddy's file and the build context are in the repository.
    let declared = Set((file["volumes"] as? [String: Any] ?? [:]).keys)
    for (name, service) in services {
      for volume in service["volumes"] as? [String] ?? [] {
        let source = String(volume.prefix { $0 != ":" })
        if source.hasPrefix(".") {
          let path = DeploymentTools.directory.appendingPathComponent(source).path
          #expect(FileManager.default.fileExists(atPath: path), "\(name): \(source)")
        } else {
          #expect(declared.contains(source), "\(name): volume \(source) is not declared")
        }
      }
    }
    let artwork = try #require(services["artwork"])
    let context = try #require((artwork["build"] as? [String: Any])?["context"] as? String)
    #expect(
      FileManager.default.fileExists(
        atPath: DeploymentTools.directory.appendingPathComponent("\(context)/Dockerfile").path))
    // Only Caddy is published.
    #expect(services.filter { $0.value["ports"] != nil }.map(\.key) == ["caddy"])

    // The service's environment, as compose fills it in over the image's (Dockerfile ENV), is
    // a configuration the service accepts, with what the stack relies on.
    let environment = (artwork["environment"] as? [String: Any] ?? [:]).mapValues {
      Self.interpolated("\($0)")
    }
    var full = ["ARTWORK_LISTEN": "0.0.0.0:8080", "ARTWORK_STORAGE": "/var/lib/artwork/data"]
    full.merge(environment) { $1 }
    let config = try ServiceConfig(environment: full)
    #expect(config.publicURL == "https://img.example.org")
    #expect(config.shutdownGrace < .seconds(30), "ARTWORK_SHUTDOWN_GRACE below stop_grace_period")
    // Caddy's fixed address is the one trusted proxy, inside the network's subnet.
    let caddy = try #require(services["caddy"])
    let caddyAddress = try #require(
      ((caddy["networks"] as? [String: Any])?["artwork"] as? [String: Any])?["ipv4_address"]
        as? String)
    #expect(environment["ARTWORK_TRUSTED_PROXIES"] == caddyAddress)
    #expect(config.trustedProxies.networks.map(\.description) == ["\(caddyAddress)/32"])
    #expect(caddy["environment"] as? [String: String] != nil)
    #expect((caddy["environment"] as? [String: String])?["ARTWORK_UPSTREAM"] == "artwork:8080")
    // SeaweedFS makes the bucket the service stores in, with the keys it signs with.
    let seaweed = try #require(services["seaweedfs"])
    #expect((seaweed["command"] as? [String] ?? []).contains("-bucket=artwork"))
    #expect(environment["ARTWORK_STORAGE"] == "s3://artwork")
    #expect(environment["ARTWORK_S3_ENDPOINT"] == "http://seaweedfs:8333")
    let keys = (seaweed["environment"] as? [String: String] ?? [:]).mapValues(Self.interpolated)
    #expect(keys["AWS_ACCESS_KEY_ID"] == environment["ARTWORK_S3_ACCESS_KEY_ID"])
    #expect(keys["AWS_SECRET_ACCESS_KEY"] == environment["ARTWORK_S3_SECRET_ACCESS_KEY"])
  }
}
