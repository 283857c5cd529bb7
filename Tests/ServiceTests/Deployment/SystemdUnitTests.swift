import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// `deploy/artwork.service` against Debian's systemd-analyze: the unit verifies (with its
/// ExecStart pointed at the built binary, which verify wants to find), its hardening scores an
/// overall exposure of 2.0 or less, docs/deployment.md states that score, and the unit keeps what the
/// service needs of it.
@Suite struct SystemdUnitTests {
  static let unit = DeploymentTools.file("artwork.service")

  static func text() throws -> String { try String(contentsOf: unit, encoding: .utf8) }

  /// The value of the unit's `key=` lines, in order.
  static func values(_ key: String, in text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      line.hasPrefix("\(key)=") ? String(line.dropFirst(key.count + 1)) : nil
    }
  }

  @Test func verifiesWithTheBuiltBinary() async throws {
    let analyze = try await DeploymentTools.tool("systemd-analyze")
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-unit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("artwork.service")
    let text = try Self.text()
    #expect(Self.values("ExecStart", in: text) == ["/usr/local/bin/artwork serve"])
    try text.replacingOccurrences(
      of: "ExecStart=/usr/local/bin/artwork", with: "ExecStart=\(ServiceProcess.executable.path)"
    ).write(to: copy, atomically: true, encoding: .utf8)
    let verify = try await DeploymentTools.run(analyze, ["verify", copy.path])
    #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    #expect(!verify.error.contains("artwork.service"), "\(verify.error)")
    // The same check finds a mistake: a misspelt setting.
    try text.replacingOccurrences(of: "ProtectSystem=strict", with: "ProtectSystem=strikt")
      .replacingOccurrences(
        of: "ExecStart=/usr/local/bin/artwork", with: "ExecStart=\(ServiceProcess.executable.path)"
      ).write(to: copy, atomically: true, encoding: .utf8)
    let broken = try await DeploymentTools.run(analyze, ["verify", copy.path])
    #expect(broken.error.contains("strikt"), "\(broken.error)")
  }

  @Test func overallExposureIsAtMostTwoAndTheReadmeSaysSo() async throws {
    let analyze = try await DeploymentTools.tool("systemd-analyze")
    let run = try await DeploymentTools.run(
      analyze, ["security", "--offline=true", "--no-pager", Self.unit.path])
    let line = try #require(
      run.output.split(separator: "\n").first { $0.contains("Overall exposure level") },
      "\(run.output)\(run.error)")
    // "→ Overall exposure level for artwork.service: 1.2 OK 🙂" (or ":-)" without UTF-8)
    let after = try #require(line.range(of: "artwork.service: "), "\(line)").upperBound
    let score = String(line[after...].prefix { $0 != " " })
    let value = try #require(Double(score), "\(line)")
    #expect(value <= 2.0, "\(run.output)")
    let page = try String(
      contentsOf: Repository.root.appendingPathComponent("docs/deployment.md"), encoding: .utf8)
    #expect(page.contains("overall exposure of \(score)"), "deployment.md should state \(score)")
  }

  /// The unit's `Environment=` lines overlaid by `deploy/artwork.env` (what systemd does) are
  /// a configuration the service accepts: no misspelt variable, no bad value.
  @Test func theUnitsSettingsAreAccepted() throws {
    var environment: [String: String] = [:]
    let example = try String(
      contentsOf: DeploymentTools.file("artwork.env"), encoding: .utf8)
    let lines =
      Self.values("Environment", in: try Self.text())
      + example.split(separator: "\n").map(String.init).filter {
        !$0.hasPrefix("#") && $0.contains("=")
      }
    for line in lines {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      environment[parts[0]] = parts[1]
    }
    #expect(environment["ARTWORK_PUBLIC_URL"] == "https://img.example.org")
    // As shipped, its placeholder token stops the start, saying how to make a token.
    #expect {
      try ServiceConfig(environment: environment)
    } throws: { error in
      "\(error)".contains("placeholder") && "\(error)".contains("openssl rand -hex 32")
    }
    environment["ARTWORK_API_TOKENS"] = "relay:" + String(repeating: "7f", count: 32)
    let config = try ServiceConfig(environment: environment)
    #expect(config.trustedProxies.networks.map(\.description) == ["127.0.0.1/32", "::1/128"])
    #expect(config.listen.isLoopback)
  }

  /// What the service needs of its unit: a reload that re-reads the token file, a stop timeout
  /// above the drain's grace, its own user and state, the environment file, and room for the
  /// workers' own sandbox (their seccomp filter, their resource limits).
  @Test func keepsWhatTheServiceNeeds() throws {
    let text = try Self.text()
    #expect(Self.values("ExecReload", in: text) == ["/bin/kill -HUP $MAINPID"])
    #expect(Self.values("EnvironmentFile", in: text) == ["/etc/artwork/env"])
    #expect(Self.values("DynamicUser", in: text) == ["yes"])
    #expect(Self.values("StateDirectory", in: text) == ["artwork"])
    #expect(Self.values("Environment", in: text).contains("ARTWORK_STORAGE=/var/lib/artwork"))
    let grace = try #require(
      Self.values("Environment", in: text).first { $0.hasPrefix("ARTWORK_SHUTDOWN_GRACE=") })
    let graceSeconds = try #require(
      Int(grace.dropFirst("ARTWORK_SHUTDOWN_GRACE=".count).dropLast()))
    let stop = try #require(Self.values("TimeoutStopSec", in: text).first)
    let stopSeconds = try #require(Int(stop.dropLast()))
    #expect(grace.hasSuffix("s") && stop.hasSuffix("s"))
    #expect(stopSeconds > graceSeconds)
    for setting in [
      "ProtectSystem=strict", "PrivateTmp=yes", "NoNewPrivileges=yes", "MemoryDenyWriteExecute=yes",
      "RestrictNamespaces=yes", "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
    ] {
      #expect(text.contains("\n\(setting)\n"), "missing \(setting)")
    }
    #expect(!Self.values("MemoryMax", in: text).isEmpty)
    let filters = Self.values("SystemCallFilter", in: text)
    #expect(filters.contains("@system-service seccomp"), "\(filters)")
    #expect(!filters.contains { $0.hasPrefix("~") && $0.contains("@resources") }, "\(filters)")
  }

  /// `deploy/caddy-memory.conf` as a drop-in of Debian's own caddy.service: systemd reads it
  /// without a complaint (and names a misspelt key in it), and it bounds Caddy's memory and
  /// starts Caddy again when the bound stops it (HTTP/2 rapid reset in caddy 2.6.2).
  @Test func caddysMemoryDropInVerifiesWithDebiansUnit() async throws {
    let analyze = try await DeploymentTools.tool("systemd-analyze")
    _ = try await DeploymentTools.tool("caddy")
    let debianUnit = URL(fileURLWithPath: "/lib/systemd/system/caddy.service")
    let dropIn = try String(
      contentsOf: DeploymentTools.file("caddy-memory.conf"), encoding: .utf8)
    #expect(Self.values("MemoryMax", in: dropIn) == ["512M"])
    #expect(Self.values("Restart", in: dropIn) == ["on-failure"])
    #expect(Self.values("Environment", in: dropIn) == ["GOMEMLIMIT=320MiB"])
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-caddy-unit-\(UUID().uuidString)")
    let drops = folder.appendingPathComponent("caddy.service.d")
    try FileManager.default.createDirectory(at: drops, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let unit = folder.appendingPathComponent("caddy.service")
    try FileManager.default.copyItem(at: debianUnit, to: unit)
    let installed = drops.appendingPathComponent("artwork-memory.conf")
    for (text, clean) in [
      (dropIn, true), (dropIn.replacingOccurrences(of: "MemoryMax=", with: "MemoryMaks="), false),
    ] {
      try text.write(to: installed, atomically: true, encoding: .utf8)
      let verify = try await DeploymentTools.run(
        analyze, ["verify", unit.path], environment: ["SYSTEMD_UNIT_PATH": folder.path + ":"])
      #expect(verify.status == 0, "\(verify.output)\(verify.error)")
      #expect(verify.error.contains("artwork-memory.conf") == !clean, "\(verify.error)")
    }
  }
}
