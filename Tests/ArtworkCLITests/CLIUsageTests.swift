import Foundation
import TestSupport
import Testing

/// How the `artwork` executable reads its command line: options anywhere, both spellings of a
/// value, `--`, and one line per usage error.
@Suite struct CLIUsageTests {
  /// Each usage error: exactly one line naming the problem, then the help hint; status 2.
  @Test(arguments: [
    (["process", Fixtures.path("coffee.jpg")], "artwork process: --out DIR is required"),
    (["process", "--out"], "artwork process: --out needs a value"),
    (["process", "--bogus", "x"], "artwork process: unknown option --bogus"),
    (["thumbhash"], "artwork thumbhash: an INPUT is required (a file, a directory, a URL or -)"),
    (["decode", "-o", "x.png"], "artwork decode: a HASH is required"),
    (["decode", "AAAA"], "artwork decode: -o FILE.png is required"),
    (["frobnicate"], "artwork: unknown command 'frobnicate'"),
    (["--frobnicate"], "artwork: unknown option --frobnicate"),
    (["help", "frobnicate"], "artwork help: unknown command 'frobnicate'"),
    (["serve", "now"], "artwork serve: unexpected argument 'now'"),
    (
      ["health", "--url", "ftp://x"],
      "artwork health: --url ftp://x is not an http://host[:port][/path] URL"
    ),
    ([], "artwork: no command given"),
  ])
  func usageErrorIsOneLineAndStatusTwo(arguments: [String], expected: String) async throws {
    let result = try await ServiceProcess.run(arguments)
    #expect(result.status == 2)
    let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false)
    let command = arguments.first.flatMap {
      ["process", "thumbhash", "decode", "serve", "health", "help"].contains($0) ? $0 : nil
    }
    let hint =
      command.map { "Run 'artwork help \($0)' for usage." } ?? "Run 'artwork help' for usage."
    #expect(lines == [Substring(expected), Substring(hint), ""], "\(result.error)")
    #expect(result.output.isEmpty)
  }

  /// `--opt=value`, options after the operand, and options before it all mean the same.
  @Test func optionsTakeBothSpellingsAnywhere() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = Fixtures.path("coffee.jpg")
    let spellings = [
      ["process", "--shape=poster", "--size=200", "--out=\(folder.path)", source],
      ["process", source, "--shape", "poster", "--size", "200", "--out", folder.path],
      ["process", "--out", folder.path, source, "--shape", "poster", "--size=200"],
    ]
    var outputs: [String] = []
    for arguments in spellings {
      let result = try await ServiceProcess.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.error)")
      outputs.append(result.output)
    }
    #expect(Set(outputs).count == 1)
    #expect(outputs[0].contains("\"image_shape\":\"poster\""))
  }

  /// `decode -o FILE HASH` (options first) works, and `--` lets an operand start with `-`.
  @Test func optionsBeforeTheOperandAndDoubleDash() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let hash = "1QcSHQRnh493V4dIh4eXh1h4kJUI"
    let first = folder.appendingPathComponent("a.png").path
    let result = try await ServiceProcess.run(["decode", "-o", first, hash])
    #expect(result.status == 0, "\(result.error)")
    #expect(FileManager.default.fileExists(atPath: first))

    let hashed = try await ServiceProcess.run(["thumbhash", "--", "--help"], timeout: .seconds(60))
    // After `--`, `--help` is a file name (missing here), not a request for help.
    #expect(hashed.status == 1)
    #expect(hashed.error.contains("cannot read --help: No such file or directory"))
  }

  /// File errors carry the operating system's reason, said once.
  @Test func fileErrorsCarryTheReason() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let hash = "1QcSHQRnh493V4dIh4eXh1h4kJUI"
    let missing = try await ServiceProcess.run(["decode", hash, "-o", "/nonexistent/x.png"])
    #expect(missing.status == 1)
    #expect(
      missing.error
        == "artwork decode: cannot write /nonexistent/x.png: No such file or directory\n")
    let directory = try await ServiceProcess.run(["thumbhash", "--from", folder.path])
    #expect(directory.status == 2)
    #expect(directory.error.contains("cannot read \(folder.path): Is a directory"))
    let file = try await ServiceProcess.run(["decode", hash, "-o", folder.path])
    #expect(file.status == 1)
    #expect(file.error.contains("cannot write \(folder.path): "))
  }

  @Test(arguments: [["--version"], ["version"]])
  func versionPrintsTheBuildAndLibvips(arguments: [String]) async throws {
    let result = try await ServiceProcess.run(arguments)
    #expect(result.status == 0, "\(result.error)")
    let lines = result.output.split(separator: "\n")
    #expect(lines.first == "artwork 0.12.0")
    #expect(lines.count == 2 && lines[1].hasPrefix("libvips 8."))
  }

  /// The serve help stands alone: no README to look up; signals, exit statuses and health.
  @Test func serveHelpIsSelfContained() async throws {
    let result = try await ServiceProcess.run(["serve", "--help"])
    #expect(result.status == 0)
    #expect(!result.output.contains("README"))
    for word in ["SIGTERM", "Exit status", "/healthz", "/readyz", "ARTWORK_SHUTDOWN_GRACE"] {
      #expect(result.output.contains(word), "\(word)")
    }
  }
}
