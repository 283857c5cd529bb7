import Foundation

/// The OpenAPI tools of the contract tests, `openapi-spec-validator` and `schemathesis`,
/// installed from PyPI into `.build/venv-openapi` by `scripts/openapi-tools` (through
/// `PythonTools`), the first time they are needed.
public enum OpenAPITools {
  /// The venv's bin directory, installing the tools first if need be. Blocks while pip runs:
  /// call it from a detached task.
  public static func bin() throws -> String {
    let path = try PythonTools.install("scripts/openapi-tools")
    guard FileManager.default.isExecutableFile(atPath: "\(path)/schemathesis") else {
      throw PythonToolError(
        "scripts/openapi-tools failed (python3 -m venv + pip install openapi-spec-validator "
          + "schemathesis)")
    }
    return path
  }

  /// `bin()` off the cooperative pool.
  public static func installed() async throws -> String {
    try await Task.detached { try OpenAPITools.bin() }.value
  }
}
