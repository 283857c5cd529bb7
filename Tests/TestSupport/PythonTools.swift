import Foundation
import Synchronization

/// Python tools from PyPI that tests run (Selenium, scikit-image), each in a venv under
/// `.build` that a script in `scripts/` makes and whose python it prints. The script runs the
/// first time a process needs the tool; later callers reuse its answer.
public enum PythonTools {
  private static let found = Mutex<[String: String]>([:])

  /// What `script` (a path under the repository, e.g. `scripts/quality`) prints once it has
  /// made its venv: a path in it (its python, or its bin directory). Runs the script the first
  /// time a process asks; blocks while pip runs, so call it off the cooperative pool.
  public static func install(_ script: String) throws -> String {
    try found.withLock { found in
      if let path = found[script] { return path }
      let install = Process()
      install.executableURL = URL(fileURLWithPath: "/bin/bash")
      install.arguments = [Repository.root.appendingPathComponent(script).path]
      let pipe = Pipe()
      install.standardOutput = pipe
      try install.run()
      let output = pipe.fileHandleForReading.readDataToEndOfFile()
      install.waitUntilExit()
      let path = String(decoding: output, as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      guard install.terminationStatus == 0, FileManager.default.fileExists(atPath: path) else {
        throw PythonToolError("\(script) failed (python3 -m venv, then pip install from PyPI)")
      }
      found[script] = path
      return path
    }
  }

  /// The python of the venv `script` makes (the path it prints), installing it if need be.
  public static func python(installedBy script: String) throws -> String {
    let path = try install(script)
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw PythonToolError("\(script) printed \(path), which is not a python")
    }
    return path
  }

  /// Runs `script` (a path under the repository) with `arguments` on the python of `venv`;
  /// answers its standard output. A failing run throws with its standard error.
  public static func run(
    _ script: String, _ arguments: [String], venv: String, timeout: Duration = .seconds(180)
  ) async throws -> String {
    let python = try await Task.detached { () throws -> String in
      try PythonTools.python(installedBy: venv)
    }.value
    let path = Repository.root.appendingPathComponent(script).path
    // No `__pycache__` beside a module the script imports (the browser scripts' `browser.py`):
    // a test run writes nothing into the work tree.
    let environment = ProcessInfo.processInfo.environment.filter {
      ["PATH", "HOME", "LANG"].contains($0.key)
    }.merging(["PYTHONDONTWRITEBYTECODE": "1"]) { $1 }
    let child = try ServiceProcess(executable: python, [path] + arguments, environment: environment)
    let status = await child.exitStatus(within: timeout)
    guard status == 0 else {
      throw PythonToolError(
        "\(script) exited with \(status.map(String.init) ?? "a timeout"): \(child.errorOutput)")
    }
    return child.output
  }

  /// What a script printed, as a JSON object.
  public static func object(_ output: String) throws -> [String: Any] {
    guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
    else { throw PythonToolError("the script printed no JSON object: \(output)") }
    return object
  }
}

/// Why a Python tool could not be run.
public struct PythonToolError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
