// artwork-bench: the loopback load generator and the in-process ceiling behind bench/*/run.sh.
//
//   artwork-bench load --port P [--method POST] [--path /v1/artwork?shape=poster]
//       [--body FILE]... [--body-text TEXT] [--content-type TYPE] [--header 'Name: value']...
//       [--concurrency 32] [--seconds 10] [--max-requests N] [--pause-ms 0]
//       [--retry-after 0|1]   (1: wait a 503's Retry-After before the next request)
//   artwork-bench ceiling --body FILE... [--workers N] [--concurrency 32] [--seconds 10]
//       [--max-requests N] [--shape poster] [--size 400]
//
// Each prints one JSON object on standard output: requests, failures, seconds, rate and (for
// `load`) statuses and latency percentiles in milliseconds.
import ArtworkCore
import ArtworkService
import Foundation
import ImageWorker
import Imaging
import WorkerHost
import WorkerProtocol

/// Command-line options: `--name value` pairs, repeatable.
struct Options {
  var values: [String: [String]] = [:]

  init(_ arguments: ArraySlice<String>) {
    var iterator = arguments.makeIterator()
    while let name = iterator.next() {
      guard name.hasPrefix("--"), let value = iterator.next() else {
        fail("expected --name value, got \(name)")
      }
      values[String(name.dropFirst(2)), default: []].append(value)
    }
  }

  func all(_ name: String) -> [String] { values[name] ?? [] }
  func text(_ name: String, _ fallback: String) -> String { values[name]?.last ?? fallback }
  func int(_ name: String, _ fallback: Int) -> Int {
    guard let text = values[name]?.last else { return fallback }
    guard let value = Int(text) else { fail("--\(name) needs an integer") }
    return value
  }
  func double(_ name: String, _ fallback: Double) -> Double {
    guard let text = values[name]?.last else { return fallback }
    guard let value = Double(text) else { fail("--\(name) needs a number") }
    return value
  }
}

/// Prints `message` on standard error and exits with status 2.
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("artwork-bench: \(message)\n".utf8))
  exit(2)
}

/// The bytes of each `--body` file.
func bodies(_ options: Options) -> [[UInt8]] {
  options.all("body").map { path in
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return [UInt8](data)
  }
}

/// Prints `fields` as one JSON object.
func printJSON(_ fields: [(String, Any)]) {
  let parts = fields.map { key, value -> String in
    switch value {
    case let number as Double: "\"\(key)\": \(String(format: "%.4f", number))"
    case let number as Int: "\"\(key)\": \(number)"
    default: "\"\(key)\": \"\(value)\""
    }
  }
  print("{" + parts.joined(separator: ", ") + "}")
}

/// `load`: HTTP requests to the service (or any loopback server).
func runLoad(_ options: Options) {
  let method = options.text("method", "GET")
  let path = options.text("path", "/")
  let port = UInt16(options.int("port", 8080))
  var payloads = bodies(options)
  if let text = options.all("body-text").last { payloads.append(Array(text.utf8)) }
  if payloads.isEmpty { payloads = [[]] }
  let requests = payloads.map { body -> [UInt8] in
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    for header in options.all("header") { head += header + "\r\n" }
    if method != "GET" && method != "HEAD" {
      head += "Content-Type: \(options.text("content-type", "application/octet-stream"))\r\n"
      head += "Content-Length: \(body.count)\r\n"
    }
    head += "\r\n"
    return Array(head.utf8) + body
  }
  let generator = LoadGenerator(
    requests: requests, port: port, concurrency: options.int("concurrency", 32),
    seconds: options.double("seconds", 10), maxRequests: options.int("max-requests", .max),
    pause: options.double("pause-ms", 0) / 1000,
    honoursRetryAfter: options.int("retry-after", 0) == 1)
  let report = generator.run()
  let statuses = report.statuses.sorted { $0.key < $1.key }.map { "\($0.key)x\($0.value)" }
  printJSON([
    ("mode", "load"), ("requests", report.completed), ("failures", report.failures),
    ("statuses", statuses.joined(separator: ",")), ("seconds", report.elapsed),
    ("rate", report.rate), ("body_bytes", report.bodyBytes),
    ("mb_per_s", Double(report.bodyBytes) / report.elapsed / 1e6),
    ("p50_ms", report.percentile(0.5)), ("p90_ms", report.percentile(0.9)),
    ("p99_ms", report.percentile(0.99)), ("max_ms", report.percentile(1)),
  ])
}

/// `ceiling`: the upload path's work (validate, render, ThumbHash, content key) on a worker pool
/// of the service's size, called directly: no HTTP, no storage.
func runCeiling(_ options: Options) async {
  Runtime.initialize()
  let images = bodies(options)
  guard !images.isEmpty else { fail("ceiling needs --body FILE") }
  let workers = options.int("workers", ProcessInfo.processInfo.activeProcessorCount)
  let concurrency = options.int("concurrency", 32)
  let seconds = options.double("seconds", 10)
  let maxRequests = options.int("max-requests", .max)
  guard let shape = Shape(rawValue: options.text("shape", "poster")) else { fail("bad --shape") }
  let crop: CropMode = options.text("crop", "attention") == "centre" ? .centre : .attention
  let artworkOptions = ArtworkOptions(shape: shape, size: options.int("size", 400), crop: crop)
  // Same pool size and limits as the service's defaults (ARTWORK_QUEUE=64, 2 MB, 40 MP), the
  // work done in this process (`--in process`, the default: what the workers cost is then
  // measured against it) or in worker processes started from `--executable` (`--in workers`).
  let inWorkers = options.text("in", "process") == "workers"
  let pool = BlockingPool<Void>(name: "artwork-img", threads: workers, queueLimit: 64)
  var settings = WorkerSettings(
    count: workers, queueLimit: 64, memoryBytes: 512 << 20, timeout: .seconds(30))
  settings.executable = options.text("executable", "/proc/self/exe")
  let processor =
    inWorkers
    ? ArtworkProcessor(
      workers: try! WorkerPool(settings), maxSourceBytes: 2_000_000, maxPixels: 40_000_000)
    : nil
  let pinned = images.map { PinnedBytes(copying: $0) }
  let counter = Counter()
  let start = ContinuousClock.now
  let deadline = start + .seconds(seconds)
  let failures = await withTaskGroup(of: Int.self) { group in
    for _ in 0..<concurrency {
      group.addTask {
        var failures = 0
        while ContinuousClock.now < deadline {
          let number = counter.next()
          guard number < maxRequests else { break }
          do throws(ArtworkError) {
            if let processor {
              _ = try await processor.render(
                images[number % images.count], declaredType: "image/jpeg",
                options: artworkOptions)
            } else {
              let image = pinned[number % pinned.count]
              _ = try await pool.run { () throws(ArtworkError) in
                let (facts, bytes) = try JobRunner.render(
                  image, options: artworkOptions, limits: .standard)
                // Checked and keyed as the service does a worker's rendering.
                return try CreatedArtwork(facts, bytes: bytes, shape: artworkOptions.shape)
              }
            }
          } catch {
            failures += 1
          }
        }
        return failures
      }
    }
    return await group.reduce(0, +)
  }
  let elapsed = start.duration(to: .now)
  let elapsedSeconds =
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  let completed = min(counter.value, maxRequests) - failures
  printJSON([
    ("mode", "ceiling"), ("requests", completed), ("failures", failures),
    ("seconds", elapsedSeconds), ("rate", Double(completed) / elapsedSeconds),
    ("workers", workers), ("in", inWorkers ? "workers" : "process"),
  ])
}

/// `floor`: the decode floor, decoding alone at the shrink-on-load framing would choose, on a
/// pool of the service's size, at `concurrency`: what no framing path can beat.
func runFloor(_ options: Options) async {
  Runtime.initialize()
  let images = bodies(options).map { PinnedBytes(copying: $0) }
  guard !images.isEmpty else { fail("floor needs --body FILE") }
  let workers = options.int("workers", ProcessInfo.processInfo.activeProcessorCount)
  let concurrency = options.int("concurrency", 4)
  let seconds = options.double("seconds", 10)
  guard let shape = Shape(rawValue: options.text("shape", "poster")) else { fail("bad --shape") }
  let artworkOptions = ArtworkOptions(shape: shape, size: options.int("size", 400))
  let pool = BlockingPool<Void>(name: "artwork-img", threads: workers, queueLimit: 64)
  let counter = Counter()
  let eighths = Counter()
  let start = ContinuousClock.now
  let deadline = start + .seconds(seconds)
  await withTaskGroup(of: Void.self) { group in
    for _ in 0..<concurrency {
      group.addTask {
        while ContinuousClock.now < deadline {
          let number = counter.next()
          let image = images[number % images.count]
          let decoded = try? await pool.run { () throws(ArtworkError) in
            try ImagePipeline.decodeFloor(image, options: artworkOptions)
          }
          if number == 0, let decoded { for _ in 0..<decoded.eighths { _ = eighths.next() } }
        }
      }
    }
  }
  let elapsed = start.duration(to: .now)
  let elapsedSeconds =
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  printJSON([
    ("mode", "floor"), ("requests", counter.value), ("seconds", elapsedSeconds),
    ("rate", Double(counter.value) / elapsedSeconds), ("eighths", eighths.value),
    ("workers", workers),
  ])
}

// `ceiling --in workers` starts its workers from this executable, as the service does.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == WorkerLaunch.command {
  WorkerMain.run(Array(CommandLine.arguments.dropFirst(2)))
}
let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "load": runLoad(Options(arguments.dropFirst()))
case "ceiling": await runCeiling(Options(arguments.dropFirst()))
case "floor": await runFloor(Options(arguments.dropFirst()))
default:
  fail(
    "usage: artwork-bench load|ceiling|floor --name value ... (see bench/artwork-bench/main.swift)")
}
