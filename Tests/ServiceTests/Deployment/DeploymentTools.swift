import Foundation
import TestSupport

/// The files under `deploy/` and the real tools that check them (Debian's caddy, promtool,
/// systemd-analyze and curl; jsonschema and the Compose schema in `.build/venv-deploy`), all
/// installed by `scripts/deploy-tools`, which runs the first time a test needs them.
enum DeploymentTools {
  /// `deploy/` in the repository.
  static let directory = Repository.root.appendingPathComponent("deploy")

  /// `deploy/NAME`.
  static func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

  /// The deployment venv's bin directory, installing the tools first if need be.
  static func venv() async throws -> String {
    try await Task.detached { try PythonTools.install("scripts/deploy-tools") }.value
  }

  /// The absolute path of a Debian tool, installing the tools first when it is missing.
  static func tool(_ name: String) async throws -> String {
    if let path = ServiceProcess.which(name) ?? systemPath(name) { return path }
    _ = try await venv()
    guard let path = ServiceProcess.which(name) ?? systemPath(name) else {
      throw PythonToolError("scripts/deploy-tools did not install \(name)")
    }
    return path
  }

  private static func systemPath(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/usr/sbin/\(name)", "/bin/\(name)"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Runs `executable arguments...` to completion with `environment` (PATH, HOME and LANG of
  /// this process under it): its exit status (nil after `timeout`), standard output and error.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    timeout: Duration = .seconds(120)
  ) async throws -> (status: Int32?, output: String, error: String) {
    var full = ProcessInfo.processInfo.environment.filter {
      ["PATH", "HOME", "LANG"].contains($0.key)
    }
    full.merge(environment) { $1 }
    let child = try ServiceProcess(executable: executable, arguments, environment: full)
    let status = await child.exitStatus(within: timeout)
    return (status, child.output, child.errorOutput)
  }
}

extension DeploymentTools {
  /// A YAML file read by PyYAML (`safe_load`, in the deployment venv) and handed over as JSON.
  static func yaml(_ file: URL) async throws -> Any {
    let python = try await venv() + "/python"
    let read = try await run(
      python,
      [
        "-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)",
        file.path,
      ])
    guard read.status == 0 else {
      throw PythonToolError("PyYAML could not read \(file.path): \(read.error)")
    }
    return try JSONSerialization.jsonObject(with: Data(read.output.utf8))
  }
}
