import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import WorkerProtocol

/// The worker protocol, read by the service as it reads a client: every message round-trips,
/// and anything else (short, long, mutated, a code a worker may not report) is refused, never
/// trapped on. The encoding is canonical: a message that reads at all reads as exactly the
/// message it was, so a mutated one is either refused or written back byte for byte.
@Suite struct WorkerMessagesTests {
  static let source = SourceInfo(
    format: .jpeg, width: 600, height: 400, bytes: 93948, hasAlpha: false, hasICCProfile: true,
    orientation: 6)

  static let timings: StageTimings = {
    var timings = StageTimings()
    timings.decodeFrame = .nanoseconds(12_345_678)
    timings.encode = .milliseconds(3)
    timings.thumbHash = .nanoseconds(1)
    return timings
  }()

  static let answers: [WorkerAnswer] = [
    .rendered(
      RenderFacts(
        outputCount: 34244, format: .jpeg, width: 400, height: 600, source: source,
        timings: StageTimings(), hash: [1, 2, 3, 4, 5])),
    .rendered(
      RenderFacts(
        outputCount: 1, format: .png, width: 1, height: 1, source: source,
        timings: timings, hash: [])),
    .thumbHashed(source, hash: Array(repeating: 7, count: 25)),
    .inspected(source),
    .probed(
      ContainmentProbe.Report(attempts: [
        .init(action: "open /etc/hostname", succeeded: false, outcome: "Permission denied")
      ])),
    .failed(JobFailure(code: .timeout, detail: "The image took too long.", internalDetail: nil)),
    .failed(
      JobFailure(
        code: .unprocessable, detail: "The JPEG image is truncated or corrupt.",
        internalDetail: "libjpeg: Corrupt JPEG data: premature end of data segment")),
    .failed(
      JobFailure(
        code: .memory, detail: "The image could not be decoded.",
        internalDetail: "vips_tracked: out of memory --- size == 114MB")),
    .failed(JobFailure(code: .unsupported, detail: "Not an image.", internalDetail: nil)),
    .failed(JobFailure(code: .internal, detail: "Not handed back.", internalDetail: "EFBIG")),
  ]

  static let jobs: [WorkerJob] = [
    .render(ArtworkOptions(shape: .poster, size: 640, crop: .centre)), .thumbHash, .inspect,
    .probe(.init(file: "/etc/hostname", host: "127.0.0.1", port: 4242, program: "/bin/true")),
  ]

  static var limits: ImageLimits {
    var limits = ImageLimits.pixels(12_345_678)
    limits.maxSeconds = 4.5
    return limits
  }

  @Test func answersRoundTrip() throws {
    for answer in Self.answers {
      let read = try WorkerMessages.readAnswer(
        WorkerMessages.answer(answer), maxOutputBytes: 2_000_000)
      #expect(read == answer)
    }
  }

  @Test func jobsRoundTrip() throws {
    for job in Self.jobs {
      let read = try WorkerMessages.readJob(
        WorkerMessages.job(job, inputCount: 1_999_999, limits: Self.limits))
      #expect(read.job == job && read.inputCount == 1_999_999)
      #expect(read.limits.maxPixels == 12_345_678 && read.limits.maxSeconds == 4.5)
    }
  }

  /// A `ready` names the worker's pid and libvips version. One of the protocol before (a pid
  /// alone), one cut short, and one whose version is past its bound are refused.
  @Test func readyCarriesTheLibvipsVersion() throws {
    let bytes = WorkerMessages.ready(pid: 4242, libvips: "8.14.1")
    let ready = try WorkerMessages.readReady(bytes)
    #expect(ready.pid == 4242 && ready.libvips == "8.14.1")
    var before = WireWriter()
    for value in [WorkerMessages.magic, 2, 4242] { before.u32(value) }
    var long = WireWriter()
    for value in [WorkerMessages.magic, WorkerMessages.version, 4242] { long.u32(value) }
    long.text(String(repeating: "8", count: WorkerMessages.maxLibraryVersionBytes + 1))
    for refused in [before.bytes, long.bytes] + (0..<bytes.count).map({ Array(bytes.prefix($0)) }) {
      #expect(throws: WireReader.Malformed.self) { try WorkerMessages.readReady(refused) }
    }
  }

  /// A failed answer as a worker that says what it likes would write it.
  static func forgedFailure(_ code: String, detail: [UInt8] = [], internalDetail: [UInt8] = [])
    -> [UInt8]
  {
    var writer = WireWriter()
    writer.u32(WorkerMessages.magic)
    writer.u8(5)
    writer.text(code)
    writer.data(detail)
    writer.data(internalDetail)
    return writer.bytes
  }

  @Test func aWorkerCannotReportWhatImageWorkCannotMeet() throws {
    // The forger's bytes are well formed: a known code reads.
    let honest = try WorkerMessages.readAnswer(
      Self.forgedFailure("memory", detail: Array("no room".utf8)), maxOutputBytes: 2_000_000)
    #expect(
      honest == .failed(JobFailure(code: .memory, detail: "no room", internalDetail: nil)))
    // A crash is the service's verdict from a wait status, never a worker's claim; a problem
    // kind is not a code.
    for code in ["crash", "unauthorized", "decoder-failure", "", "MEMORY"] {
      #expect(throws: WireReader.Malformed.self, "\(code)") {
        try WorkerMessages.readAnswer(Self.forgedFailure(code), maxOutputBytes: 2_000_000)
      }
    }
    // Words past their bounds, or not UTF-8.
    for forged in [
      Self.forgedFailure("unprocessable", detail: Array(repeating: 0x61, count: 1001)),
      Self.forgedFailure("unprocessable", internalDetail: Array(repeating: 0x61, count: 2001)),
      Self.forgedFailure("unprocessable", detail: [0x61, 0xC3]),
      Self.forgedFailure("unprocessable", internalDetail: [0xFF, 0xFE]),
    ] {
      #expect(throws: WireReader.Malformed.self) {
        try WorkerMessages.readAnswer(forged, maxOutputBytes: 2_000_000)
      }
    }
    let huge = WorkerMessages.answer(
      .rendered(
        RenderFacts(
          outputCount: 3_000_000, format: .png, width: 1, height: 1, source: Self.source,
          timings: StageTimings(), hash: [1])))
    #expect(throws: WireReader.Malformed.self) {
      try WorkerMessages.readAnswer(huge, maxOutputBytes: 2_000_000)
    }
  }

  /// Long words are cut to their bound between two characters, and still read.
  @Test func longWordsAreCutToTheirBoundAsValidUTF8() throws {
    let long = JobFailure(
      code: .unprocessable, detail: String(repeating: "é", count: 600),
      internalDetail: "x" + String(repeating: "€", count: 1000))
    let read = try WorkerMessages.readAnswer(
      WorkerMessages.answer(.failed(long)), maxOutputBytes: 2_000_000)
    guard case .failed(let failure) = read else {
      Issue.record("read \(read)")
      return
    }
    #expect(failure.code == .unprocessable)
    #expect(failure.detail == String(repeating: "é", count: 500))
    #expect(failure.internalDetail == "x" + String(repeating: "€", count: 666))
  }

  @Test func everyPrefixOfAMessageIsRefused() {
    let messages =
      Self.answers.map { WorkerMessages.answer($0) }
      + Self.jobs.map { WorkerMessages.job($0, inputCount: 10, limits: Self.limits) }
    for bytes in messages {
      for length in 0..<bytes.count {
        let prefix = Array(bytes.prefix(length))
        #expect(throws: WireReader.Malformed.self) {
          try WorkerMessages.readAnswer(prefix, maxOutputBytes: 2_000_000)
        }
        #expect(throws: WireReader.Malformed.self) { try WorkerMessages.readJob(prefix) }
      }
    }
  }

  /// `bytes` with one to four bytes set at random.
  static func mutate(_ bytes: [UInt8], using generator: inout SeededRandom) -> [UInt8] {
    var mutated = bytes
    for _ in 0..<Int.random(in: 1...4, using: &generator) {
      mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
        in: 0...255, using: &generator)
    }
    return mutated
  }

  /// Many mutations of every message: each is refused, or read as exactly what it is, written
  /// back to the same bytes. A mutation that left the bytes as they were reads as the original.
  @Test func aMutatedMessageIsRefusedOrReadsBackExactly() {
    var generator = SeededRandom()
    let replay = SeededRandom.replay
    var refused = 0
    var read = 0
    for answer in Self.answers {
      let bytes = WorkerMessages.answer(answer)
      for _ in 0..<300 {
        let mutated = Self.mutate(bytes, using: &generator)
        do throws(WireReader.Malformed) {
          let reading = try WorkerMessages.readAnswer(mutated, maxOutputBytes: 2_000_000)
          read += 1
          #expect(WorkerMessages.answer(reading) == mutated, "\(reading); \(replay)")
          if mutated == bytes { #expect(reading == answer, "\(replay)") }
        } catch {
          refused += 1
          #expect(mutated != bytes, "the original refused: \(error); \(replay)")
        }
      }
    }
    for job in Self.jobs {
      let bytes = WorkerMessages.job(job, inputCount: 1_999_999, limits: Self.limits)
      for _ in 0..<300 {
        let mutated = Self.mutate(bytes, using: &generator)
        do throws(WireReader.Malformed) {
          let reading = try WorkerMessages.readJob(mutated)
          read += 1
          let written = WorkerMessages.job(
            reading.job, inputCount: reading.inputCount, limits: reading.limits)
          #expect(written == mutated, "\(reading); \(replay)")
        } catch {
          refused += 1
          #expect(mutated != bytes, "the original refused: \(error); \(replay)")
        }
      }
    }
    let ready = WorkerMessages.ready(pid: 4242, libvips: "8.14.1")
    for _ in 0..<300 {
      let mutated = Self.mutate(ready, using: &generator)
      guard let reading = try? WorkerMessages.readReady(mutated) else {
        refused += 1
        continue
      }
      read += 1
      let written = WorkerMessages.ready(pid: reading.pid, libvips: reading.libvips)
      #expect(written == mutated, "\(replay)")
    }
    // Both outcomes are met: the check above ran on messages that were read.
    #expect(refused > 0 && read > 0, "\(refused) refused, \(read) read; \(replay)")
  }
}
