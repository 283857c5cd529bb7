import Foundation
import TestSupport
import Testing
import ThumbHashCodec

/// Where a command writes a file, as a shell user meets it: `-` is standard output through a
/// real pipe; a symbolic link, `/dev/stdout` and a FIFO are written through, never replaced; a
/// regular file is replaced; a directory is refused.
@Suite struct CLIOutputFileTests {
  static let hash = "1QcSHQRnh493V4dIh4eXh1h4kJUI"

  /// The PNG `decode` writes for `hash`, made here.
  static func expectedPNG() throws -> [UInt8] {
    ThumbHash.pngData(try ThumbHash.decode(base64: hash))
  }

  /// `script` run by /bin/sh with `$ARTWORK` the built executable and `$HASH` the hash.
  static func shell(_ script: String, in folder: URL) async throws -> (Int32?, String, String) {
    let wrapped =
      "cd '\(folder.path)' && ARTWORK='\(ServiceProcess.executable.path)' HASH='\(hash)' && "
      + script
    return try await ServiceProcess.runProgram("sh", ["-c", wrapped], timeout: .seconds(60))
  }

  static func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test func aDashIsStandardOutputThroughAPipe() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    // A real pipe: the PNG reaches the reader, and no file named "-" is made.
    let (status, output, error) = try await Self.shell(
      #""$ARTWORK" decode "$HASH" -o - | od -An -tx1 -v | tr -d ' \n'"#, in: folder)
    #expect(status == 0, "\(error)")
    let hex = try Self.expectedPNG().map { String(format: "%02x", $0) }.joined()
    #expect(output == hex)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path))
  }

  @Test func devStdoutInAPipeIsWrittenThroughNotReplaced() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (status, output, error) = try await Self.shell(
      #""$ARTWORK" decode "$HASH" -o /dev/stdout | wc -c"#, in: folder)
    #expect(status == 0, "\(error)")
    let expected = try Self.expectedPNG().count
    #expect(Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) == expected)
    var info = stat()
    #expect(lstat("/dev/stdout", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
  }

  @Test func aSymbolicLinkIsWrittenThroughAndStays() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("target.png").path
    let link = folder.appendingPathComponent("link.png").path
    #expect(FileManager.default.createFile(atPath: target, contents: Data("old".utf8)))
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.png")
    let result = try await ServiceProcess.run(["decode", Self.hash, "-o", link])
    #expect(result.status == 0, "\(result.error)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.png")
    let png = try Self.expectedPNG()
    #expect(try Self.bytes(target) == png)

    // A dangling link: its target is made.
    let dangling = folder.appendingPathComponent("dangling.png").path
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "made.png")
    let made = try await ServiceProcess.run(["decode", Self.hash, "-o", dangling])
    #expect(made.status == 0, "\(made.error)")
    #expect(try Self.bytes(folder.appendingPathComponent("made.png").path) == png)
  }

  @Test func aFIFOIsWrittenThrough() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (status, output, error) = try await Self.shell(
      #"mkfifo pipe && (cat pipe > received &) && "$ARTWORK" decode "$HASH" -o pipe && wait; "#
        + #"sleep 0.2; test -p pipe && echo still-a-fifo"#, in: folder)
    #expect(status == 0, "\(error)")
    #expect(output.contains("still-a-fifo"))
    let png = try Self.expectedPNG()
    #expect(try Self.bytes(folder.appendingPathComponent("received").path) == png)
  }

  @Test func aRegularFileIsReplacedAndADirectoryRefused() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.png").path
    #expect(FileManager.default.createFile(atPath: file, contents: Data(repeating: 7, count: 5000)))
    let replaced = try await ServiceProcess.run(["decode", Self.hash, "-o", file])
    #expect(replaced.status == 0, "\(replaced.error)")
    let png = try Self.expectedPNG()
    #expect(try Self.bytes(file) == png)

    let refused = try await ServiceProcess.run(["decode", Self.hash, "-o", folder.path])
    #expect(refused.status == 1)
    #expect(refused.error.contains("is a directory"), "\(refused.error)")
  }

  /// `process --jsonl -` writes the JSON lines to standard output.
  @Test func jsonlToADashIsStandardOutput() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try await ServiceProcess.run([
      "process", Fixtures.path("coffee.jpg"), "--out", folder.path, "--jsonl", "-",
      "--progress", "never",
    ])
    #expect(result.status == 0, "\(result.error)")
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == 1 && lines[0].contains("\"image_thumbhash\""))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path))
  }
}
