import Foundation
import TestSupport
import Testing

/// `scripts/check-links`, which CI runs on the repository's Markdown, run here on a folder of
/// Markdown files made for it (not a git work tree, so it checks every `*.md` there): it names
/// exactly the broken links, each with its line, and exits 1; the same files with those links
/// mended pass. It is not run on the repository here: CI does that, so a broken link fails CI
/// and not the test command.
@Suite struct CheckLinksTests {
  static let script = Repository.root.appendingPathComponent("scripts/check-links").path

  /// Six broken links (`broken`) among good ones, code that looks like links, and an absolute URL.
  static let files: [String: String] = [
    "guide.md": """
    # Guide

    The [notes](docs/notes.md), their [setup](docs/notes.md#setup) and [the top](#guide).
    A [missing page](docs/missing.md) is reported.
    So is a [missing part](docs/notes.md#teardown): that heading is in a code fence.
    [Usage again](docs/notes.md#usage-1) is the repeated heading; [a third](docs/notes.md#usage-2)?

    ```
    [in a fence](docs/missing.md)
    ```

    Not in `[a code span](docs/missing.md)`, nor [a URL](https://example.org/missing.md).
    """,
    "docs/notes.md": """
    # Notes

    ## Setup

    ## Usage

    ## Usage

    ~~~
    ## Teardown
    ~~~

    To the [guide](../guide.md#guide), to [line 2](../run.sh#L2) and to [line 9](../run.sh#L9).
    <img src="../missing.png" alt="">

    [reference]: ../gone.md
    """,
    "run.sh": "#!/bin/sh\necho one\necho two\n",
  ]

  /// The broken links: the path, line and target that begin each report.
  static let broken = [
    "docs/notes.md:13: ../run.sh#L9",
    "docs/notes.md:14: ../missing.png",
    "docs/notes.md:16: ../gone.md",
    "guide.md:4: docs/missing.md",
    "guide.md:5: docs/notes.md#teardown",
    "guide.md:6: docs/notes.md#usage-2",
  ]

  /// Writes `files` under a new temporary folder and runs the script on that folder.
  static func check(_ files: [String: String]) async throws -> (
    status: Int32?, output: String, error: String
  ) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-links-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (path, text) in files {
      let file = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: file, atomically: true, encoding: .utf8)
    }
    let environment = ProcessInfo.processInfo.environment.filter {
      ["PATH", "HOME", "LANG"].contains($0.key)
    }
    let child = try ServiceProcess(executable: script, [folder.path], environment: environment)
    let status = await child.exitStatus(within: .seconds(60))
    return (status, child.output, child.errorOutput)
  }

  @Test func namesExactlyTheBrokenLinksWithTheirLines() async throws {
    let run = try await Self.check(Self.files)
    #expect(run.status == 1, "\(run.output)\(run.error)")
    // Each report is `path:line: target: why`.
    let reported = run.output.split(separator: "\n").map {
      $0.components(separatedBy: ": ").prefix(2).joined(separator: ": ")
    }
    #expect(reported == Self.broken, "\(run.output)")
    #expect(run.error.contains("6 broken of 12 relative links in 2 Markdown files"), "\(run.error)")
  }

  @Test func passesOnceTheyAreMended() async throws {
    let mends = [
      ("docs/missing.md", "docs/notes.md"), ("#teardown", "#setup"), ("#usage-2", "#usage"),
      ("#L9", "#L3"), ("../missing.png", "../run.sh"), ("../gone.md", "../guide.md"),
    ]
    let mended = Self.files.mapValues { text in
      mends.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }
    let run = try await Self.check(mended)
    #expect(run.status == 0, "\(run.output)\(run.error)")
    #expect(
      run.output == "check-links: 12 relative links in 2 Markdown files resolve "
        + "(1 absolute not checked)\n", "\(run.output)\(run.error)")
  }
}
