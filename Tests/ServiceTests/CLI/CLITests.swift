import Foundation
import TestSupport
import Testing
import ThumbHashCodec

@testable import ArtworkService
@testable import Imaging

/// The `artwork` command line, run as the built executable.
@Suite struct CLITests {
  @Test func thumbhashPrintsHashTabPathPerFile() async throws {
    let files = [Fixtures.path("tiny-rgba.png"), Fixtures.path("coffee.jpg")]
    let result = try await ServiceProcess.run(["thumbhash"] + files)
    #expect(result.status == 0, "\(result.error)")
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    let columns = lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    #expect(columns.map { $0.count } == [2, 2])
    #expect(columns.map { String($0.last ?? "") } == files)

    // A picture of at most 100x100 is hashed pixel for pixel (ThumbnailPixelsTests shows that
    // these are its exact pixels).
    let tiny = try ImagePipeline.thumbnailPixels(Fixtures.bytes("tiny-rgba.png")).pixels
    #expect(tiny.width == 7 && tiny.height == 5)
    let expected = try ThumbHash.encode(width: tiny.width, height: tiny.height, rgba: tiny.rgba)
    let printed = String(columns[0][0])
    #expect(printed == ThumbHashBase64.encode(expected))
    #expect(printed.count % 4 == 0)
  }

  @Test func thumbhashReportsABadFileAmongGoodOnes() async throws {
    let good = Fixtures.path("chelsea.png")
    let bad = Fixtures.path("truncated.jpg")
    let missing = "/nonexistent/artwork-\(UUID().uuidString).png"
    let result = try await ServiceProcess.run(["thumbhash", good, bad, missing, good])
    #expect(result.status == 1)
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.hasSuffix("\t\(good)") })
    #expect(result.error.contains(bad))
    #expect(result.error.contains(missing))
  }

  @Test func decodeWritesAPNGOfTheHashSize() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let pixels = try ImagePipeline.thumbnailPixels(Fixtures.bytes("coffee.jpg")).pixels
    let hash = try ThumbHash.encode(width: pixels.width, height: pixels.height, rgba: pixels.rgba)
    let out = folder.appendingPathComponent("placeholder.png").path
    let result = try await ServiceProcess.run(["decode", ThumbHashBase64.encode(hash), "-o", out])
    #expect(result.status == 0, "\(result.error)")
    let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    let info = try ImagePipeline.inspect(written)
    let image = try ThumbHash.decode(hash)
    #expect(info.format == .png && info.width == image.width && info.height == image.height)

    let bad = try await ServiceProcess.run(["decode", "!!", "-o", out + ".bad"])
    #expect(bad.status == 1)
    #expect(!bad.error.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: out + ".bad"))
  }

  /// `process` prints what the service answers for the same file and options, with the file's
  /// path as `image_url` (and `path`), and stores that file.
  @Test func processPrintsTheServiceAnswer() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = Fixtures.path("coffee.jpg")
    let result = try await ServiceProcess.run([
      "process", source, "--shape", "poster", "--size", "400", "--out", folder.path,
    ])
    #expect(result.status == 0, "\(result.error)")
    var printed = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    // The batch line names its input and outcome, and the stored file's path.
    #expect(printed.removeValue(forKey: "input") as? String == source)
    #expect(printed.removeValue(forKey: "ok") as? Bool == true)
    #expect(printed.removeValue(forKey: "path") as? String == printed["image_url"] as? String)
    let path = try #require(printed["image_url"] as? String)
    #expect(path.hasPrefix(folder.path + "/") && path.hasSuffix(".jpg"))
    let stored = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let info = try ImagePipeline.inspect(stored)
    #expect(info.format == .jpeg && info.width == 400 && info.height == 600)
    #expect(printed["bytes"] as? Int == stored.count)

    let served = try await ServiceHarness.run { service in
      try await service.upload(
        Fixtures.bytes("coffee.jpg"), fields: [("shape", "poster"), ("size", "400")])
    }
    #expect(served.status == 201)
    let expectedKeys = [
      "image_url", "image_shape", "image_thumbhash", "width", "height", "format", "bytes",
      "average_color", "source",
    ]
    let keyPositions = expectedKeys.map { key in
      result.output.range(of: "\"\(key)\":").map {
        result.output.distance(from: result.output.startIndex, to: $0.lowerBound)
      } ?? -1
    }
    #expect(!keyPositions.contains(-1) && keyPositions == keyPositions.sorted())
    var answer = served.object
    answer["image_url"] = path
    #expect(NSDictionary(dictionary: answer).isEqual(to: printed), "\(answer) vs \(printed)")
  }

  @Test func processRefusesBadInput() async throws {
    let folder = Fixtures.temporaryDirectory("artwork-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let badSize = try await ServiceProcess.run([
      "process", Fixtures.path("coffee.jpg"), "--size", "5000", "--out", folder.path,
    ])
    // A bad option is a usage error, with the service's text.
    #expect(badSize.status == 2)
    #expect(badSize.error.hasPrefix("artwork process: size=\"5000\" is not accepted"))
    let badFile = try await ServiceProcess.run([
      "process", Fixtures.path("page.html"), "--out", folder.path,
    ])
    #expect(badFile.status == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    let noOut = try await ServiceProcess.run(["process", Fixtures.path("coffee.jpg")])
    #expect(noOut.status == 2)
  }

  @Test(arguments: [
    ["--help"], ["help"], ["process", "--help"], ["thumbhash", "--help"], ["help", "serve"],
  ])
  func helpExitsZero(arguments: [String]) async throws {
    let result = try await ServiceProcess.run(arguments)
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.contains("artwork"))
  }

  @Test func unknownCommandExitsTwo() async throws {
    let result = try await ServiceProcess.run(["frobnicate"])
    #expect(result.status == 2)
    #expect(result.error.contains("frobnicate"))
  }
}
