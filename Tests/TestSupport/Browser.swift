/// Headless Chromium for the tests of what a browser does (CORS, the web page), driven by a
/// Python script through Selenium. Chromium and chromedriver come from Debian (`scripts/deps`);
/// Selenium is installed into `.build/venv-browser` by `scripts/browser`.
public enum Browser {
  /// Runs the driver script `script` (a path under the repository) with `arguments`; answers
  /// its standard output, one JSON object (parse it with `object`). A failing script throws
  /// with its stderr.
  public static func run(_ script: String, _ arguments: [String], timeout: Duration = .seconds(180))
    async throws -> String
  {
    for program in ["chromium", "chromedriver"] where ServiceProcess.which(program) == nil {
      throw PythonToolError(
        "\(program) is not installed: run scripts/deps (Debian's chromium and chromium-driver)")
    }
    return try await PythonTools.run(script, arguments, venv: "scripts/browser", timeout: timeout)
  }

  /// What a driver script printed, as a JSON object.
  public static func object(_ output: String) throws -> [String: Any] {
    try PythonTools.object(output)
  }
}
