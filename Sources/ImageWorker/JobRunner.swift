import ArtworkCore
import Imaging
import WorkerProtocol

/// A job's work on its input, in the calling process: what a worker process runs for each job,
/// and what the fuzz target and the in-process benchmark call directly.
public enum JobRunner {
  /// The answer to `job` on `input`, and the bytes of a rendering (empty for the other jobs).
  /// Never throws: a failure is an answer too (`.failed`, its code judged here), as the service
  /// will get it.
  package static func perform(_ job: WorkerJob, input: PinnedBytes, limits: ImageLimits) -> (
    answer: WorkerAnswer, output: [UInt8]
  ) {
    do throws(ArtworkError) {
      return try attempt(job, input: input, limits: limits)
    } catch {
      return (.failed(JobFailure(error)), [])
    }
  }

  /// `perform`, with a failure thrown as the pipeline threw it.
  private static func attempt(_ job: WorkerJob, input: PinnedBytes, limits: ImageLimits)
    throws(ArtworkError) -> (answer: WorkerAnswer, output: [UInt8])
  {
    switch job {
    case .render(let options):
      let (facts, bytes) = try render(input, options: options, limits: limits)
      return (.rendered(facts), bytes)
    case .thumbHash:
      let (source, pixels) = try ImagePipeline.thumbnailPixels(input, limits: limits)
      return (.thumbHashed(source, hash: try pixels.thumbHash()), [])
    case .inspect:
      return (.inspected(try ImagePipeline.inspect(input)), [])
    case .probe(let targets):
      return (.probed(ContainmentProbe.run(targets)), [])
    }
  }

  /// A render job's facts and bytes, its failure thrown as the pipeline threw it: what a worker
  /// answers, and what the in-process ceiling of `artwork-bench` (which measures what the
  /// workers cost) checks as the service would (`CreatedArtwork`).
  package static func render(_ input: PinnedBytes, options: ArtworkOptions, limits: ImageLimits)
    throws(ArtworkError) -> (facts: RenderFacts, bytes: [UInt8])
  {
    var rendered = try ImagePipeline.render(input, options: options, limits: limits)
    let thumbnail = rendered.thumbnail
    let hash = try StageTimings.measure(&rendered.timings.thumbHash) {
      () throws(ArtworkError) in try thumbnail.thumbHash()
    }
    let facts = RenderFacts(
      outputCount: rendered.bytes.count, format: rendered.format, width: rendered.width,
      height: rendered.height, source: rendered.source, timings: rendered.timings, hash: hash)
    return (facts, rendered.bytes)
  }

  /// The fuzz target's one input: every job a source can meet (both crops of a poster, a
  /// square, the ThumbHash, the header), in this process. Answers how many succeeded.
  public static func fuzzOne(_ bytes: UnsafeRawBufferPointer) -> Int {
    let input = PinnedBytes(copying: bytes)
    var limits = ImageLimits.standard
    // Small enough that a fuzzed header cannot ask for minutes of work per input.
    limits.maxPixels = 4_000_000
    let jobs: [WorkerJob] = [
      .render(ArtworkOptions(shape: .poster, size: 64, crop: .attention)),
      .render(ArtworkOptions(shape: .square, size: 64, crop: .centre)),
      .thumbHash, .inspect,
    ]
    return jobs.reduce(0) { count, job in
      if case .failed = perform(job, input: input, limits: limits).answer { return count }
      return count + 1
    }
  }
}
