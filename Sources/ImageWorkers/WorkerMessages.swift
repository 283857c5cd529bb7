import ArtworkCore
import Imaging

/// The worker protocol's messages, each one datagram of a SOCK_SEQPACKET socket pair:
///
/// - worker to service, once: `ready` (magic, protocol version, the worker's pid);
/// - service to worker, per job: the job, the input's length in the input file, the limits;
/// - worker to service, per job: the answer.
///
/// Integers are little-endian and fixed-width; text and byte strings carry their length. The
/// service reads answers with `WireReader`, which refuses anything out of place.
enum WorkerMessages {
  /// "ARTW", then the version of this protocol: a worker of another build is refused.
  static let magic: UInt32 = 0x5754_5241
  static let version: UInt32 = 1
  /// The largest message either side sends (an answer with a long problem text included).
  static let maxMessageBytes = 64 * 1024

  // MARK: Ready

  static func ready(pid: Int32) -> [UInt8] {
    var writer = WireWriter()
    writer.u32(magic)
    writer.u32(version)
    writer.u32(UInt32(bitPattern: pid))
    return writer.bytes
  }

  /// The worker's pid, from its `ready` message.
  static func readReady(_ bytes: [UInt8]) throws(WireReader.Malformed) -> Int32 {
    var reader = WireReader(bytes)
    guard try reader.u32() == magic, try reader.u32() == version else {
      throw WireReader.Malformed(description: "not a ready message of this protocol version")
    }
    let pid = Int32(bitPattern: try reader.u32())
    try reader.finish()
    return pid
  }

  // MARK: Jobs

  private enum JobKind: UInt8 {
    case render = 1
    case thumbHash
    case inspect
    case probe
  }

  /// A job on `inputCount` bytes of the input file, within `limits`.
  static func job(_ job: WorkerJob, inputCount: Int, limits: ImageLimits) -> [UInt8] {
    var writer = WireWriter()
    writer.u32(magic)
    writer.int(inputCount)
    writer.int(limits.maxPixels)
    writer.u64(UInt64((max(0, limits.maxSeconds) * 1000).rounded()))
    switch job {
    case .render(let options):
      writer.u8(JobKind.render.rawValue)
      writer.text(options.shape.rawValue)
      writer.int(options.size)
      writer.text(options.crop.rawValue)
    case .thumbHash: writer.u8(JobKind.thumbHash.rawValue)
    case .inspect: writer.u8(JobKind.inspect.rawValue)
    case .probe(let targets):
      writer.u8(JobKind.probe.rawValue)
      writer.text(targets.file)
      writer.text(targets.host)
      writer.int(targets.port)
      writer.text(targets.program)
    }
    return writer.bytes
  }

  /// A job as the worker reads it.
  static func readJob(_ bytes: [UInt8]) throws(WireReader.Malformed) -> (
    job: WorkerJob, inputCount: Int, limits: ImageLimits
  ) {
    var reader = WireReader(bytes)
    guard try reader.u32() == magic else {
      throw WireReader.Malformed(description: "not a job message")
    }
    let inputCount = try reader.int(atMost: Int(Int32.max))
    var limits = ImageLimits.pixels(try reader.int(atMost: Int(Int32.max) * 4))
    limits.maxSeconds = Double(try reader.int(atMost: 86_400_000)) / 1000
    let job: WorkerJob
    switch JobKind(rawValue: try reader.u8()) {
    case .render:
      let shape = try reader.named(Shape.self)
      let size = try reader.int(atMost: 1 << 20)
      let crop = try reader.named(CropMode.self)
      job = .render(ArtworkOptions(shape: shape, size: size, crop: crop))
    case .thumbHash: job = .thumbHash
    case .inspect: job = .inspect
    case .probe:
      job = .probe(
        ContainmentProbe.Targets(
          file: try reader.text(), host: try reader.text(), port: try reader.int(atMost: 65535),
          program: try reader.text()))
    case nil: throw WireReader.Malformed(description: "unknown job kind")
    }
    try reader.finish()
    return (job, inputCount, limits)
  }

  // MARK: Answers

  private enum AnswerKind: UInt8 {
    case rendered = 1
    case thumbHashed
    case inspected
    case probed
    case failed
  }

  static func answer(_ answer: WorkerAnswer) -> [UInt8] {
    var writer = WireWriter()
    writer.u32(magic)
    switch answer {
    case .rendered(let facts):
      writer.u8(AnswerKind.rendered.rawValue)
      writer.int(facts.outputCount)
      writer.text(facts.format.rawValue)
      writer.int(facts.width)
      writer.int(facts.height)
      write(facts.source, to: &writer)
      for stage in [facts.timings.decodeFrame, facts.timings.encode, facts.timings.thumbHash] {
        writer.u64(UInt64(clamping: max(0, nanoseconds(stage))))
      }
      writer.data(facts.hash)
    case .thumbHashed(let source, let hash):
      writer.u8(AnswerKind.thumbHashed.rawValue)
      write(source, to: &writer)
      writer.data(hash)
    case .inspected(let source):
      writer.u8(AnswerKind.inspected.rawValue)
      write(source, to: &writer)
    case .probed(let report):
      writer.u8(AnswerKind.probed.rawValue)
      writer.int(report.attempts.count)
      for attempt in report.attempts {
        writer.text(attempt.action)
        writer.bool(attempt.succeeded)
        writer.text(attempt.outcome)
      }
    case .failed(let error):
      writer.u8(AnswerKind.failed.rawValue)
      writer.text(error.kind.rawValue)
      writer.text(String(error.detail.prefix(1000)))
      writer.text(String((error.internalDetail ?? "").prefix(2000)))
      writer.int(error.members.count)
      for member in error.members {
        writer.text(member.name)
        switch member.value {
        case .string(let text):
          writer.u8(0)
          writer.text(text)
        case .int(let number):
          writer.u8(1)
          writer.u64(UInt64(bitPattern: Int64(number)))
        }
      }
    }
    return writer.bytes
  }

  /// An answer as the service reads it. Kinds of problem a worker may report are limited to
  /// those image work can meet; anything else is malformed.
  static func readAnswer(_ bytes: [UInt8], maxOutputBytes: Int) throws(WireReader.Malformed)
    -> WorkerAnswer
  {
    var reader = WireReader(bytes)
    guard try reader.u32() == magic else {
      throw WireReader.Malformed(description: "not an answer message")
    }
    let answer: WorkerAnswer
    switch AnswerKind(rawValue: try reader.u8()) {
    case .rendered:
      let count = try reader.int(atMost: maxOutputBytes)
      let format = try reader.named(StoredFormat.self)
      let width = try reader.int(atMost: 1 << 20)
      let height = try reader.int(atMost: 1 << 20)
      let source = try readSource(&reader)
      var timings = StageTimings()
      timings.decodeFrame = .nanoseconds(Int64(clamping: try reader.u64()))
      timings.encode = .nanoseconds(Int64(clamping: try reader.u64()))
      timings.thumbHash = .nanoseconds(Int64(clamping: try reader.u64()))
      let hash = try reader.data(atMost: 64)
      answer = .rendered(
        RenderFacts(
          outputCount: count, format: format, width: width, height: height, source: source,
          timings: timings, hash: hash))
    case .thumbHashed:
      let source = try readSource(&reader)
      answer = .thumbHashed(source, hash: try reader.data(atMost: 64))
    case .inspected: answer = .inspected(try readSource(&reader))
    case .probed:
      let count = try reader.int(atMost: 64)
      var attempts: [ContainmentProbe.Attempt] = []
      for _ in 0..<count {
        attempts.append(
          ContainmentProbe.Attempt(
            action: try reader.text(), succeeded: try reader.bool(), outcome: try reader.text()))
      }
      answer = .probed(ContainmentProbe.Report(attempts: attempts))
    case .failed:
      let kind = try reader.named(ArtworkError.Kind.self)
      guard [.unprocessableImage, .unsupportedMediaType, .decoderFailure, .internal].contains(kind)
      else { throw WireReader.Malformed(description: "a worker may not report \(kind)") }
      let detail = try reader.text(atMost: 4096)
      let internalDetail = try reader.text(atMost: 8192)
      let count = try reader.int(atMost: 8)
      var members: [ProblemMember] = []
      for _ in 0..<count {
        let name = try reader.text(atMost: 64)
        switch try reader.u8() {
        case 0: members.append(.string(name, try reader.text(atMost: 256)))
        case 1: members.append(.int(name, Int(Int64(bitPattern: try reader.u64()))))
        default: throw WireReader.Malformed(description: "a member of unknown type")
        }
      }
      answer = .failed(
        ArtworkError(
          kind, detail, internalDetail: internalDetail.isEmpty ? nil : internalDetail,
          members: members))
    case nil: throw WireReader.Malformed(description: "unknown answer kind")
    }
    try reader.finish()
    return answer
  }

  private static func write(_ source: SourceInfo, to writer: inout WireWriter) {
    writer.text(source.format.rawValue)
    writer.int(source.width)
    writer.int(source.height)
    writer.int(source.bytes)
    writer.bool(source.hasAlpha)
    writer.bool(source.hasICCProfile)
    writer.int(source.orientation)
  }

  private static func readSource(_ reader: inout WireReader) throws(WireReader.Malformed)
    -> SourceInfo
  {
    SourceInfo(
      format: try reader.named(ImageFormat.self), width: try reader.int(atMost: 1 << 31),
      height: try reader.int(atMost: 1 << 31), bytes: try reader.int(atMost: 1 << 40),
      hasAlpha: try reader.bool(), hasICCProfile: try reader.bool(),
      orientation: try reader.int(atMost: 8))
  }

  private static func nanoseconds(_ duration: Duration) -> Int64 {
    duration.nanoseconds
  }
}
