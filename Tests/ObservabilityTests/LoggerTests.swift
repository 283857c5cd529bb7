import Foundation
import Glibc
import Synchronization
import Testing

@testable import Observability

/// Collects the lines a logger writes.
private final class LineCollector: Sendable {
  private let lines = Mutex<[String]>([])
  var all: [String] { lines.withLock { $0 } }
  func sink(_ line: String) { lines.withLock { $0.append(line) } }
}

private func parse(_ line: String) throws -> [String: Any] {
  let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
  return try #require(object as? [String: Any])
}

@Suite struct LoggerTests {
  /// A line written member by member (the access line) is the same JSON as one from fields,
  /// whatever bytes its members hold: escapes, non-ASCII, bytes that are not UTF-8.
  @Test func membersWrittenAsBytesMakeValidJSON() throws {
    let collector = LineCollector()
    let logger = Logger(level: .info, metadata: ["component": "http"], sink: collector.sink)
    let path: [UInt8] = Array("/a \"quoted\" \\ ✓ ".utf8) + [0xFF, 0x0A]
    logger.log(.info, "request") { line in
      line.member("bytes", 12)
      line.member("duration_ms", 0.25)
      line.member("path") { $0.append(contentsOf: path) }
      line.member("plain") { $0.append(contentsOf: "/v1/images/x.jpg".utf8) }
      line.member("ratio", Double.infinity)
    }
    logger.log(.debug, "dropped") { line in line.member("x", 1) }
    let lines = collector.all
    #expect(lines.count == 1)
    let line = try #require(lines.first)
    #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
    let object = try parse(line)
    #expect(object["level"] as? String == "info")
    #expect(object["msg"] as? String == "request")
    #expect(object["component"] as? String == "http")
    #expect(object["bytes"] as? Int == 12)
    #expect(object["duration_ms"] as? Double == 0.25)
    #expect(object["path"] as? String == "/a \"quoted\" \\ ✓ \u{FFFD}\n")
    #expect(object["plain"] as? String == "/v1/images/x.jpg")
    #expect(object["ratio"] is NSNull)
  }

  @Test func writesOneValidJSONObjectPerLine() throws {
    let collector = LineCollector()
    let logger = Logger(level: .debug, sink: collector.sink)
    let nasty =
      "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} del \u{7F} "
      + "sep \u{2028} emoji 🖼️ accents é"
    logger.info(
      nasty,
      [
        "text": .string(nasty), "count": 42, "ratio": 0.25, "ok": true, "nan": .double(.nan),
        "msg": "shadowed",
      ])
    let lines = collector.all
    #expect(lines.count == 1)
    let line = try #require(lines.first)
    #expect(line.hasSuffix("}\n"))
    #expect(line.dropLast().contains("\n") == false)
    let object = try parse(line)
    #expect(object["msg"] as? String == nasty)
    #expect(object["text"] as? String == nasty)
    #expect(object["level"] as? String == "info")
    #expect((object["count"] as? NSNumber)?.intValue == 42)
    #expect((object["ratio"] as? NSNumber)?.doubleValue == 0.25)
    #expect((object["ok"] as? NSNumber)?.boolValue == true)
    #expect(object["nan"] is NSNull)
    #expect(object["_msg"] as? String == "shadowed")
  }

  @Test func timestampIsISO8601UTCWithMilliseconds() throws {
    let collector = LineCollector()
    Logger(sink: collector.sink).warn("x")
    let object = try parse(try #require(collector.all.first))
    let text = try #require(object["ts"] as? String)
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let date = try #require(formatter.date(from: text))
    #expect(text.hasSuffix("Z") && text.count == 24)
    #expect(abs(date.timeIntervalSinceNow) < 3600)
    var known = timespec()
    known.tv_sec = 1_700_000_000
    known.tv_nsec = 5_000_000
    #expect(Logger.timestamp(known) == "2023-11-14T22:13:20.005Z")
  }

  @Test func levelFilterAndMetadata() throws {
    let collector = LineCollector()
    let logger = Logger(level: .warn, sink: collector.sink).with(["request": "r1"])
    logger.debug("no")
    logger.info("no")
    logger.warn("yes", ["request": "r2"])
    logger.error("yes too")
    let objects = try collector.all.map(parse)
    #expect(objects.map { $0["level"] as? String } == ["warn", "error"])
    #expect(objects.map { $0["request"] as? String } == ["r2", "r1"])
  }

  @Test func concurrentLinesStayWhole() async throws {
    let collector = LineCollector()
    let logger = Logger(sink: collector.sink)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for index in 0..<50 { logger.info("line", ["task": .int(task), "index": .int(index)]) }
        }
      }
    }
    let lines = collector.all
    #expect(lines.count == 400)
    for line in lines { _ = try parse(line) }
  }
}

@Suite struct StandardErrorSinkTests {
  /// Lines written from many threads at once reach standard error whole, never interleaved.
  /// Standard error is pointed at a file for the test, then restored once the writer thread has
  /// written everything (the lines stay well within its buffer: none is dropped).
  @Test func linesFromManyThreadsNeverInterleave() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-stderr-\(UUID().uuidString)").path
    defer { unlink(path) }
    let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    try #require(file >= 0)
    let saved = dup(2)
    try #require(saved >= 0)
    dup2(file, 2)
    let threads = 8
    let perThread = 100
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for index in 0..<perThread {
        let padding = String(repeating: "x", count: 100 + (index * 37) % 900)
        Logger.standardError("{\"thread\":\(thread),\"index\":\(index),\"pad\":\"\(padding)\"}\n")
      }
    }
    Logger.flush()
    dup2(saved, 2)
    close(saved)
    close(file)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n")
    #expect(lines.count == threads * perThread)
    var seen = Set<String>()
    for line in lines {
      let object = try parse(String(line))
      seen.insert("\(object["thread"] ?? "?")/\(object["index"] ?? "?")")
    }
    #expect(seen.count == threads * perThread)
  }
}
