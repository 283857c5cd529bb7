// The fuzz targets: `artwork-fuzz NAME ARGUMENTS...`.
//
// Built by `scripts/fuzz` with `-sanitize=fuzzer,address -DFUZZING`, each target runs under
// libFuzzer (coverage-guided, the arguments libFuzzer's own: corpus folders, -max_total_time...).
// Built normally, a target runs each file named once and reports what it did: how the tests
// replay the seed corpus and every finding (`Fuzz/findings/NAME`), as regression tests.
import ArtworkService
import Foundation
import HTTP
import ImageWorker
import Imaging

/// A target: one input's bytes in, whatever the code under test does with them.
typealias Target = (UnsafeRawBufferPointer) -> Void

let targets: [String: (setUp: () -> Void, run: Target)] = [
  // The whole image path: every job a worker runs on a source (both crops, the ThumbHash, the
  // header), in this process.
  "image": (setUp: { Vips.initialize() }, run: { _ = JobRunner.fuzzOne($0) }),
  // A create request's body (first line: its Content-Type): multipart, JSON, the options.
  "request-body": (setUp: {}, run: RequestFuzzing.createRequest),
  // A `/v1/content` document, read, filled and read again.
  "content": (setUp: {}, run: RequestFuzzing.contentDocument),
  // A media application's webhook body (first line: the provider, a space, its Content-Type),
  // through the provider's reader.
  "providers": (setUp: {}, run: RequestFuzzing.providerBody),
  // `X-Forwarded-For` behind trusted proxies (first line: the proxies; second: the peer; then
  // one field line per line).
  "forwarded": (setUp: {}, run: RequestFuzzing.forwardedFor),
  // One connection's script: bytes cut at random, the client's FIN or reset, time, answers.
  "connection": (setUp: {}, run: ConnectionTarget.run),
  // A ThumbHash, as bytes and as base64, through every reading.
  "thumbhash": (setUp: {}, run: ThumbHashTarget.run),
]

var arguments = CommandLine.arguments
guard arguments.count >= 2, let target = targets[arguments[1]] else {
  let names = targets.keys.sorted().joined(separator: ", ")
  FileHandle.standardError.write(Data("usage: artwork-fuzz NAME [FILE...] (NAME: \(names))\n".utf8))
  exit(2)
}
target.setUp()

#if FUZZING
  @_silgen_name("LLVMFuzzerRunDriver")
  func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// The chosen target, for the C callback (which cannot capture it).
  nonisolated(unsafe) var chosen: Target = target.run
  // libFuzzer reads its own options: the target's name is dropped from what it sees.
  arguments.remove(at: 1)
  var cStrings = arguments.map { strdup($0) }
  var argc = CInt(cStrings.count)
  let status = cStrings.withUnsafeMutableBufferPointer { buffer in
    var argv = buffer.baseAddress!
    return runDriver(&argc, &argv) { data, size in
      chosen(UnsafeRawBufferPointer(start: data, count: size))
      return 0
    }
  }
  exit(status)
#else
  // Replay: each file once; a crash ends the process, which is the finding.
  var count = 0
  for path in arguments.dropFirst(2) {
    let files: [String]
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      files = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        .filter { !$0.hasPrefix(".") }.map { "\(path)/\($0)" }
    } else {
      files = [path]
    }
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else {
        FileHandle.standardError.write(Data("artwork-fuzz: cannot read \(file)\n".utf8))
        exit(1)
      }
      data.withUnsafeBytes { target.run($0) }
      count += 1
    }
  }
  print("replayed \(count) inputs")
#endif
