import Testing

@testable import ArtworkCore
@testable import ImageWorkers
@testable import Imaging

/// The worker protocol, read by the service as it reads a client: every message round-trips,
/// and anything else (short, long, mutated, a problem kind a worker may not report) is refused,
/// never trapped on.
@Suite struct WorkerMessagesTests {
  static let source = SourceInfo(
    format: .jpeg, width: 600, height: 400, bytes: 93948, hasAlpha: false, hasICCProfile: true,
    orientation: 6)

  static let answers: [WorkerAnswer] = [
    .rendered(
      RenderFacts(
        outputCount: 34244, format: .jpeg, width: 400, height: 600, source: source,
        timings: StageTimings(), hash: [1, 2, 3, 4, 5])),
    .thumbHashed(source, hash: Array(repeating: 7, count: 25)),
    .inspected(source),
    .probed(
      ContainmentProbe.Report(attempts: [
        .init(action: "open /etc/hostname", succeeded: false, outcome: "Permission denied")
      ])),
    .failed(DecoderFailure.timeout.error(budget: 5)),
    .failed(ArtworkError(.unprocessableImage, "The JPEG image is truncated or corrupt.")),
  ]

  @Test func answersRoundTrip() throws {
    for answer in Self.answers {
      let read = try WorkerMessages.readAnswer(
        WorkerMessages.answer(answer), maxOutputBytes: 2_000_000)
      #expect(read == answer)
    }
  }

  @Test func jobsRoundTrip() throws {
    var limits = ImageLimits.pixels(12_345_678)
    limits.maxSeconds = 4.5
    for job: WorkerJob in [
      .render(ArtworkOptions(shape: .poster, size: 640, crop: .centre)), .thumbHash, .inspect,
      .probe(.init(file: "/etc/hostname", host: "127.0.0.1", port: 4242, program: "/bin/true")),
    ] {
      let read = try WorkerMessages.readJob(
        WorkerMessages.job(job, inputCount: 1_999_999, limits: limits))
      #expect(read.job == job && read.inputCount == 1_999_999)
      #expect(read.limits.maxPixels == 12_345_678 && read.limits.maxSeconds == 4.5)
    }
    #expect(try WorkerMessages.readReady(WorkerMessages.ready(pid: 4242)) == 4242)
  }

  @Test func aWorkerCannotReportWhatImageWorkCannotMeet() {
    let forged = WorkerMessages.answer(.failed(ArtworkError(.unauthorized, "log in")))
    #expect(throws: WireReader.Malformed.self) {
      try WorkerMessages.readAnswer(forged, maxOutputBytes: 2_000_000)
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

  /// Every prefix and many mutations of every answer: read or refused, never a trap.
  @Test func truncatedAndMutatedAnswersNeverTrap() {
    var generator = SystemRandomNumberGenerator()
    for answer in Self.answers {
      let bytes = WorkerMessages.answer(answer)
      for length in 0..<bytes.count {
        #expect(throws: WireReader.Malformed.self) {
          try WorkerMessages.readAnswer(Array(bytes.prefix(length)), maxOutputBytes: 2_000_000)
        }
      }
      for _ in 0..<300 {
        var mutated = bytes
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
          mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
            in: 0...255, using: &generator)
        }
        _ = try? WorkerMessages.readAnswer(mutated, maxOutputBytes: 2_000_000)
        _ = try? WorkerMessages.readJob(mutated)
      }
    }
  }
}
