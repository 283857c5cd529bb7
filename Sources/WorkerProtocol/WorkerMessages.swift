import ArtworkCore

/// The worker protocol's messages, each one datagram of a SOCK_SEQPACKET socket pair:
///
/// - worker to service, once: `ready` (magic, protocol version, the worker's pid, the version
///   of the image library it decodes with);
/// - service to worker, per job: the job, the input's length in the input file, the limits;
/// - worker to service, per job: the answer.
///
/// Integers are little-endian and fixed-width; text and byte strings carry their length. The
/// service reads answers with `WireReader`, which refuses anything out of place.
package enum WorkerMessages {
  /// "ARTW", then the version of this protocol: a worker of another build is refused.
  package static let magic: UInt32 = 0x5754_5241
  /// 3: `ready` names the worker's libvips version.
  package static let version: UInt32 = 3
  /// The largest message either side sends (an answer with a long problem text included).
  package static let maxMessageBytes = 64 * 1024
  /// The longest words of a failure, in UTF-8 bytes: for the client, and for the log.
  package static let maxDetailBytes = 1000
  package static let maxInternalDetailBytes = 2000

  // MARK: Ready

  /// The longest library version a worker may name, in UTF-8 bytes.
  package static let maxLibraryVersionBytes = 64

  /// A worker's `ready`: its pid, and the libvips version it decodes with (`8.14.1`).
  package static func ready(pid: Int32, libvips: String) -> [UInt8] {
    var writer = WireWriter()
    writer.u32(magic)
    writer.u32(version)
    writer.u32(UInt32(bitPattern: pid))
    writer.text(libvips, atMost: maxLibraryVersionBytes)
    return writer.bytes
  }

  /// The worker's pid and libvips version, from its `ready` message.
  package static func readReady(_ bytes: [UInt8]) throws(WireReader.Malformed) -> (
    pid: Int32, libvips: String
  ) {
    var reader = WireReader(bytes)
    guard try reader.u32() == magic, try reader.u32() == version else {
      throw WireReader.Malformed(description: "not a ready message of this protocol version")
    }
    let pid = Int32(bitPattern: try reader.u32())
    let libvips = try reader.text(atMost: maxLibraryVersionBytes)
    try reader.finish()
    return (pid, libvips)
  }

  // MARK: Jobs

  private enum JobKind: UInt8 {
    case render = 1
    case thumbHash
    case inspect
    case probe
  }

  /// A job on `inputCount` bytes of the input file, within `limits`.
  package static func job(_ job: WorkerJob, inputCount: Int, limits: ImageLimits) -> [UInt8] {
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
  package static func readJob(_ bytes: [UInt8]) throws(WireReader.Malformed) -> (
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

  package static func answer(_ answer: WorkerAnswer) -> [UInt8] {
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
    case .failed(let failure):
      writer.u8(AnswerKind.failed.rawValue)
      writer.text(failure.code.rawValue)
      writer.text(failure.detail, atMost: maxDetailBytes)
      writer.text(failure.internalDetail ?? "", atMost: maxInternalDetailBytes)
    }
    return writer.bytes
  }

  /// An answer as the service reads it. A failure is read as its code (`DecoderFailure`), which
  /// decides the service's answer, and its words, which are only passed on; a worker cannot
  /// report a crash. Anything else is malformed.
  package static func readAnswer(_ bytes: [UInt8], maxOutputBytes: Int) throws(WireReader.Malformed)
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
      timings.decodeFrame = try readDuration(&reader)
      timings.encode = try readDuration(&reader)
      timings.thumbHash = try readDuration(&reader)
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
      let code = try reader.named(DecoderFailure.self)
      guard code != .crash else {
        throw WireReader.Malformed(description: "a worker cannot report its own crash")
      }
      let detail = try reader.text(atMost: maxDetailBytes)
      let internalDetail = try reader.text(atMost: maxInternalDetailBytes)
      answer = .failed(
        JobFailure(
          code: code, detail: detail, internalDetail: internalDetail.isEmpty ? nil : internalDetail
        ))
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

  /// A stage's time, in nanoseconds (at most `Int64.max`, as the writer clamps it).
  private static func readDuration(_ reader: inout WireReader) throws(WireReader.Malformed)
    -> Duration
  {
    .nanoseconds(Int64(try reader.int(atMost: Int(Int64.max))))
  }

  private static func nanoseconds(_ duration: Duration) -> Int64 {
    duration.nanoseconds
  }
}
