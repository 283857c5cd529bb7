import Foundation
import Synchronization

/// The OpenAPI tools of the contract tests, `openapi-spec-validator` and `schemathesis`,
/// installed from PyPI into `.build/venv-openapi` by `scripts/openapi-tools`, run here the first
/// time they are needed.
public enum OpenAPITools {
  private static let installLock = Mutex<String?>(nil)

  /// The venv's bin directory, installing the tools first if need be. Blocks while pip runs:
  /// call it from a detached task.
  public static func bin() throws -> String {
    try installLock.withLock { found in
      if let found { return found }
      let script = Repository.root.appendingPathComponent("scripts/openapi-tools").path
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
      guard install.terminationStatus == 0,
        FileManager.default.isExecutableFile(atPath: "\(path)/schemathesis")
      else {
        throw OpenAPIToolsError(
          "scripts/openapi-tools failed (python3 -m venv + pip install openapi-spec-validator "
            + "schemathesis)")
      }
      found = path
      return path
    }
  }

  /// `bin()` off the cooperative pool.
  public static func installed() async throws -> String {
    try await Task.detached { try OpenAPITools.bin() }.value
  }
}

/// Why the OpenAPI tools could not be installed.
public struct OpenAPIToolsError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
