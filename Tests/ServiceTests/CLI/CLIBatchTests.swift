import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `artwork process` and `artwork thumbhash` over many inputs in one process: directories,
/// lists, URLs, one JSON line per input, the exit status, Ctrl-C and `--resume`.
@Suite struct CLIBatchTests {
  /// The JSON objects of a JSON Lines text; a line that is not a whole object fails the test.
  static func objects(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
      try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }
  }

  /// A folder with good and bad images, an ignored file, and a nested image with an upper-case
  /// ending.
  static func mixedFolder(in root: URL) throws -> URL {
    let folder = root.appendingPathComponent("in")
    let nested = folder.appendingPathComponent("sub")
    try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
    let coffee = Fixtures.bytes("coffee.jpg")
    try Data(coffee).write(to: folder.appendingPathComponent("coffee.jpg"))
    try Data(Fixtures.bytes("truncated.jpg")).write(
      to: folder.appendingPathComponent("truncated.jpg"))
    try Data(coffee + [UInt8](repeating: 0, count: 2_100_000)).write(
      to: folder.appendingPathComponent("big.jpeg"))
    try Data(Fixtures.bytes("chelsea.png")).write(to: nested.appendingPathComponent("chelsea.PNG"))
    try Data("not an image".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    return folder
  }

  @Test func directoryOfMixedImagesGivesOneLineEach() async throws {
    let root = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = try Self.mixedFolder(in: root)
    let out = root.appendingPathComponent("out").path
    let svg = Fixtures.path("drawing.svg")
    let result = try await ServiceProcess.run([
      "process", folder.path, svg, "--jobs", "2", "--shape", "poster", "--out", out,
    ])
    #expect(result.status == 1, "\(result.error)")
    let lines = try Self.objects(result.output)
    let byInput = Dictionary(
      lines.map { ($0["input"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    let expected = [
      "\(folder.path)/coffee.jpg", "\(folder.path)/truncated.jpg", "\(folder.path)/big.jpeg",
      "\(folder.path)/sub/chelsea.PNG", svg,
    ]
    #expect(lines.count == expected.count)
    #expect(Set(byInput.keys) == Set(expected))

    for name in ["coffee.jpg", "sub/chelsea.PNG"] {
      let line = try #require(byInput["\(folder.path)/\(name)"])
      #expect(line["ok"] as? Bool == true)
      #expect(line["image_shape"] as? String == "poster")
      let path = try #require(line["path"] as? String)
      #expect(path.hasPrefix(out + "/") && FileManager.default.fileExists(atPath: path))
      #expect(line["image_url"] as? String == path)
    }
    let statuses = [
      "\(folder.path)/truncated.jpg": 422, "\(folder.path)/big.jpeg": 413, svg: 415,
    ]
    for (input, status) in statuses {
      let line = try #require(byInput[input])
      #expect(line["ok"] as? Bool == false)
      let problem = try #require(line["problem"] as? [String: Any], "\(line)")
      #expect(problem["status"] as? Int == status, "\(input): \(problem)")
      #expect(Set(problem.keys) == ["type", "title", "status", "detail"])
    }
    #expect(result.error.contains("5 of 5 done, 3 failed"), "\(result.error)")
  }

  /// `--from FILE` lists inputs one per line; all good gives exit 0.
  @Test func listFileAndSuccessExitZero() async throws {
    let root = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: root) }
    let list = root.appendingPathComponent("list.txt")
    let inputs = [Fixtures.path("coffee.jpg"), Fixtures.path("lossy.webp")]
    try Data((inputs.joined(separator: "\n") + "\n\n").utf8).write(to: list)
    let jsonl = root.appendingPathComponent("out.jsonl").path
    let result = try await ServiceProcess.run([
      "process", "--from", list.path, "--out", root.path, "--jsonl", jsonl, "--progress", "never",
    ])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.isEmpty)
    let lines = try Self.objects(try String(contentsOfFile: jsonl, encoding: .utf8))
    #expect(Set(lines.compactMap { $0["input"] as? String }) == Set(inputs))
    #expect(lines.allSatisfy { $0["ok"] as? Bool == true })
    // The summary is one line on standard error.
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
  }

  /// `-` reads inputs one per line from standard input (a pipeline's `find ... | artwork
  /// process -`), here through a real shell pipe.
  @Test func dashReadsInputsFromStandardInput() async throws {
    let root = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: root) }
    let inputs = [Fixtures.path("coffee.jpg"), Fixtures.path("chelsea.png")]
    let jsonl = root.appendingPathComponent("out.jsonl").path
    let command =
      "printf '%s\\n' \(inputs.map { "'\($0)'" }.joined(separator: " ")) | '"
      + ServiceProcess.executable.path + "' process - --out '\(root.path)' --jsonl '\(jsonl)'"
    let shell = try ServiceProcess(executable: "/bin/sh", ["-c", command])
    #expect(await shell.exitStatus(within: .seconds(120)) == 0, "\(shell.errorOutput)")
    let lines = try Self.objects(try String(contentsOfFile: jsonl, encoding: .utf8))
    #expect(Set(lines.compactMap { $0["input"] as? String }) == Set(inputs))
    #expect(lines.allSatisfy { $0["ok"] as? Bool == true })
  }

  /// A URL input is fetched under the service's address policy: refused by default (loopback
  /// is private), fetched when ARTWORK_PRIVATE_SOURCES allows it, with the URL in `source`.
  @Test func urlInputsFollowTheServiceAddressPolicy() async throws {
    let root = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: root) }
    let url = try URLSourceFixture.url("/image.jpg" + URLSourceFixture.unique())
    let refused = try await ServiceProcess.run(["process", url, "--out", root.path])
    #expect(refused.status == 1)
    let refusal = try #require(try Self.objects(refused.output).first)
    #expect((refusal["problem"] as? [String: Any])?["status"] as? Int == 403, "\(refusal)")

    let allowed = try await ServiceProcess.run(
      ["process", url, "--out", root.path],
      environment: ["ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32"])
    #expect(allowed.status == 0, "\(allowed.error)")
    let line = try #require(try Self.objects(allowed.output).first)
    #expect(line["input"] as? String == url && line["ok"] as? Bool == true)
    #expect((line["source"] as? [String: Any])?["url"] as? String == url)

    let hashed = try await ServiceProcess.run(
      ["thumbhash", "--json", url, Fixtures.path("coffee.jpg"), "/nonexistent/x.jpg"],
      environment: ["ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32"])
    #expect(hashed.status == 1)
    let hashes = try Self.objects(hashed.output)
    #expect(hashes.count == 3)
    for object in hashes where object["ok"] as? Bool == true {
      for key in ["thumbhash", "width", "height", "average_color", "aspect_ratio"] {
        #expect(object[key] != nil, "\(key) in \(object)")
      }
    }
    let missing = try #require(hashes.first { $0["input"] as? String == "/nonexistent/x.jpg" })
    let problem = try #require(missing["problem"] as? [String: Any])
    #expect(problem["status"] as? Int == 404)
    #expect(
      problem["detail"] as? String == "cannot read /nonexistent/x.jpg: No such file or directory")
  }

  /// The tab-separated output stays in input order whatever the number of jobs, and a
  /// directory is walked.
  @Test func thumbhashTabOutputInInputOrder() async throws {
    let root = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = try Self.mixedFolder(in: root)
    let files = (1...6).map { Fixtures.path($0 % 2 == 0 ? "coffee.jpg" : "tiny-rgba.png") }
    let result = try await ServiceProcess.run(["thumbhash", "--jobs", "3"] + files + [folder.path])
    #expect(result.status == 1)
    let names = result.output.split(separator: "\n").map { String($0.split(separator: "\t")[1]) }
    #expect(names == files + ["\(folder.path)/coffee.jpg", "\(folder.path)/sub/chelsea.PNG"])
    #expect(result.error.contains("truncated.jpg") && result.error.contains("big.jpeg"))
  }

  /// Ctrl-C stops taking inputs, lets the running ones finish and leaves whole lines; a later
  /// `--resume` does the rest, repeating none.
  @Test func interruptThenResume() async throws {
    let root = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let photo = Data(Fixtures.bytes("photo-large.jpg"))
    let count = 30
    for number in 1...count {
      try photo.write(to: folder.appendingPathComponent(String(format: "p%02d.jpg", number)))
    }
    let jsonl = root.appendingPathComponent("run.jsonl").path
    let arguments = [
      "process", folder.path, "--jobs", "1", "--size", "1200", "--out",
      root.appendingPathComponent("out").path, "--jsonl", jsonl,
    ]
    let child = try ServiceProcess(arguments)
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      let text = (try? String(contentsOfFile: jsonl, encoding: .utf8)) ?? ""
      if text.contains("\n") { break }
      try await Task.sleep(for: .milliseconds(10))
    }
    child.send(signal: SIGINT)
    let status = await child.exitStatus()
    #expect(status == 130, "\(child.errorOutput)")
    #expect(child.errorOutput.contains("interrupted"))
    let first = try Self.objects(try String(contentsOfFile: jsonl, encoding: .utf8))
    #expect(first.count >= 1 && first.count < count, "\(first.count) lines")
    #expect(first.allSatisfy { $0["ok"] as? Bool == true })

    let resumed = try await ServiceProcess.run(arguments + ["--resume"])
    #expect(resumed.status == 0, "\(resumed.error)")
    #expect(resumed.error.contains("\(first.count) skipped"), "\(resumed.error)")
    let all = try Self.objects(try String(contentsOfFile: jsonl, encoding: .utf8))
    let inputs = all.compactMap { $0["input"] as? String }
    #expect(inputs.count == count && Set(inputs).count == count)
  }

  @Test(arguments: [
    (["process", "--out", "/tmp", "--jobs", "0", "x"], "--jobs 0 is not a number from 1 to 256"),
    (
      ["process", "--out", "/tmp", "--progress", "maybe", "x"],
      "--progress maybe is not one of auto, always, never"
    ),
    (["process", "--out", "/tmp", "--resume", "x"], "--resume needs --jsonl FILE"),
    (["process", "--out", "/tmp"], "an INPUT is required (a file, a directory, a URL or -)"),
    (
      ["thumbhash", "--from", "/nonexistent/list"],
      "--from: cannot read /nonexistent/list: No such file or directory"
    ),
  ])
  func batchUsageErrors(arguments: [String], problem: String) async throws {
    let result = try await ServiceProcess.run(arguments)
    #expect(result.status == 2)
    #expect(
      result.error
        == "artwork \(arguments[0]): \(problem)\nRun 'artwork help \(arguments[0])' for usage.\n")
  }
}
