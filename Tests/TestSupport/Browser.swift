import Foundation
import Synchronization

/// Headless Chromium for the tests of what a browser does (CORS, the web page), driven by a
/// Python script through Selenium. Chromium and chromedriver come from Debian (`scripts/deps`);
/// Selenium is installed into `.build/venv-browser` by `scripts/browser`, run here the first
/// time it is needed.
public enum Browser {
  private static let installLock = Mutex<String?>(nil)

  /// The venv's python, installing Selenium first if need be.
  public static func python() throws -> String {
    try installLock.withLock { found in
      if let found { return found }
      for program in ["chromium", "chromedriver"] where ServiceProcess.which(program) == nil {
        throw BrowserError(
          "\(program) is not installed: run scripts/deps (Debian's chromium and chromium-driver)")
      }
      let script = Repository.root.appendingPathComponent("scripts/browser").path
      let install = Process()
      install.executableURL = URL(fileURLWithPath: "/bin/bash")
      install.arguments = [script]
      let pipe = Pipe()
      install.standardOutput = pipe
      try install.run()
      let output = pipe.fileHandleForReading.readDataToEndOfFile()
      install.waitUntilExit()
      let path = String(decoding: output, as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines)
      guard install.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: path)
      else {
        throw BrowserError("scripts/browser failed (python3 -m venv + pip install selenium)")
      }
      found = path
      return path
    }
  }

  /// Runs the driver script `script` (a path under the repository) with `arguments`; answers
  /// its standard output, one JSON object (parse it with `object`). A failing script throws
  /// with its stderr.
  public static func run(_ script: String, _ arguments: [String], timeout: Duration = .seconds(180))
    async throws -> String
  {
    let python = try await Task.detached { () throws -> String in try Browser.python() }.value
    let path = Repository.root.appendingPathComponent(script).path
    let environment = ProcessInfo.processInfo.environment.filter {
      ["PATH", "HOME", "LANG"].contains($0.key)
    }
    let child = try ServiceProcess(executable: python, [path] + arguments, environment: environment)
    let status = await child.exitStatus(within: timeout)
    guard status == 0 else {
      throw BrowserError(
        "\(script) exited with \(status.map(String.init) ?? "a timeout"): \(child.errorOutput)")
    }
    return child.output
  }

  /// What a driver script printed, as a JSON object.
  public static func object(_ output: String) throws -> [String: Any] {
    guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
    else { throw BrowserError("the driver printed no JSON object: \(output)") }
    return object
  }
}

/// Why the browser could not be run.
public struct BrowserError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
