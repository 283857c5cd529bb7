// thumbhash-bench: encodes and decodes per second for ThumbHashCodec on one RGBA image.
//
// Usage: thumbhash-bench [--input FILE.rgba] [--width 100] [--height 100] [--seconds 2]
//                        [--dump-decoded FILE]
// Prints one JSON object: {"impl","encode_per_s","decode_per_s",...,"hash"} (rates are the
// fastest 50 ms batch; the *_mean_per_s fields average all batches); --dump-decoded writes
// the decoded RGBA so a script can compare it with other implementations. The default input is
// bench/out/0409_photo_astronaut_100x100.rgba, which bench/thumbhash/run.sh makes from the
// repository's copy of the public ThumbHash vectors (Tests/ThumbHashCodecTests/Vectors).
// bench/thumbhash/run.sh runs this next to the Rust and pure-Python implementations.
import Foundation
import ThumbHashCodec

/// Command-line options with their defaults.
struct Options {
  var input = "bench/out/0409_photo_astronaut_100x100.rgba"
  var width = 100
  var height = 100
  var seconds = 2.0
  var dumpDecoded: String?

  init(arguments: [String]) {
    var index = 1
    while index + 1 < arguments.count {
      let value = arguments[index + 1]
      switch arguments[index] {
      case "--input": input = value
      case "--width": width = Int(value) ?? width
      case "--height": height = Int(value) ?? height
      case "--seconds": seconds = Double(value) ?? seconds
      case "--dump-decoded": dumpDecoded = value
      default: Bench.fail("unknown option \(arguments[index])")
      }
      index += 2
    }
  }
}

/// The measuring loop.
enum Bench {
  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("thumbhash-bench: \(message)\n".utf8))
    exit(2)
  }

  /// Runs `body` in batches of about 50 ms until `seconds` have passed. Returns the fastest
  /// batch's calls per second (as Python's timeit takes the minimum: other processes on the
  /// machine can only slow a batch down) and the mean over all batches.
  static func rate(seconds: Double, _ body: () -> Int) -> (best: Double, mean: Double, sink: Int) {
    let clock = ContinuousClock()
    var sink = 0
    for _ in 0..<50 { sink &+= body() }  // warm-up: tables, caches, allocator
    // Size a batch to about 50 ms.
    var batch = 1
    while true {
      let start = clock.now
      for _ in 0..<batch { sink &+= body() }
      if clock.now - start >= .milliseconds(50) { break }
      batch *= 2
    }
    var best = 0.0
    var calls = 0
    let start = clock.now
    while clock.now - start < .seconds(seconds) {
      let batchStart = clock.now
      for _ in 0..<batch { sink &+= body() }
      best = Swift.max(best, Double(batch) / inSeconds(clock.now - batchStart))
      calls += batch
    }
    return (best, Double(calls) / inSeconds(clock.now - start), sink)
  }

  static func inSeconds(_ duration: Duration) -> Double {
    let components = duration.components
    return Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  static func main() {
    let options = Options(arguments: CommandLine.arguments)
    guard let data = FileManager.default.contents(atPath: options.input) else {
      fail("cannot read \(options.input)")
    }
    let rgba = [UInt8](data)
    let hash: [UInt8]
    do {
      hash = try ThumbHash.encode(width: options.width, height: options.height, rgba: rgba)
    } catch {
      fail("\(error)")
    }
    if let path = options.dumpDecoded, let image = try? ThumbHash.decode(hash) {
      guard FileManager.default.createFile(atPath: path, contents: Data(image.rgba)) else {
        fail("cannot write \(path)")
      }
    }
    let encode = rate(seconds: options.seconds) {
      Int(
        (try? ThumbHash.encode(width: options.width, height: options.height, rgba: rgba))?[7] ?? 0)
    }
    let decode = rate(seconds: options.seconds) {
      Int((try? ThumbHash.decode(hash))?.rgba[100] ?? 0)
    }
    let line =
      "{\"impl\": \"swift\", \"encode_per_s\": \(Int(encode.best)), "
      + "\"decode_per_s\": \(Int(decode.best)), \"encode_mean_per_s\": \(Int(encode.mean)), "
      + "\"decode_mean_per_s\": \(Int(decode.mean)), "
      + "\"hash\": \"\(ThumbHashBase64.encode(hash))\", \"sink\": \((encode.sink &+ decode.sink) & 1)}"
    print(line)
  }
}

Bench.main()
