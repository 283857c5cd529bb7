import ArtworkCore
import ArtworkService
import JSON
import SafeFetch
import WorkerHost

#if canImport(Glibc)
  import Glibc
#endif

/// A subcommand that runs the service's work over a batch of inputs (`process`, `thumbhash`):
/// the service's source settings, a loader on worker processes, and the run with its progress,
/// summary and exit status.
protocol BatchCommand: Subcommand {}

extension BatchCommand {
  /// The service's source settings (limits, address policy, fetch budget) read from the
  /// variables in `ServiceConfig.sourceKeys` only, with the service's defaults and validation:
  /// the rest of a server's environment (its listen address, its tokens) is not this
  /// command's business. A bad value is a usage error.
  static func sourceConfig(environment: [String: String]) throws(UsageError) -> ServiceConfig {
    do {
      return try ServiceConfig(
        environment: environment.filter { ServiceConfig.sourceKeys.contains($0.key) })
    } catch {
      throw UsageError(name, "invalid configuration: " + error.problems.joined(separator: "; "))
    }
  }

  /// The loader and processor a batch uses: the service's limits and fetcher settings
  /// (`sizeLimit` false lifts the byte limit), `jobs` image threads and as many for files.
  static func loader(_ config: ServiceConfig, jobs: Int, sizeLimit: Bool)
    throws(ArtworkError) -> SourceLoader
  {
    let processor = try processor(config, workers: jobs, sizeLimit: sizeLimit)
    let fetcher = try SourceFetcher(
      config.fetchConfiguration(maxBytes: sizeLimit ? nil : Int.max),
      pool: FetchPool(threads: jobs, queueLimit: jobs * 2))
    let io = BlockingPool<Void>(name: "artwork-io", threads: jobs, queueLimit: jobs * 2)
    return SourceLoader(processor: processor, fetcher: fetcher, io: io)
  }

  /// A processor with the service's limits on `workers` worker processes (this executable's,
  /// as the service's are: an input that kills one fails its own line, and the batch goes on);
  /// `sizeLimit` false lifts the byte limit (`--no-size-limit`), never the pixel limit.
  private static func processor(_ config: ServiceConfig, workers: Int, sizeLimit: Bool)
    throws(ArtworkError) -> ArtworkProcessor
  {
    // Enough waiting room that the batch's own jobs never meet a full queue.
    let pool = try WorkerPool(config.workerSettings(count: workers, queueLimit: workers * 2))
    return ArtworkProcessor(
      workers: pool, maxSourceBytes: sizeLimit ? config.sourceByteLimit : Int.max,
      maxPixels: config.sourcePixelLimit)
  }

  /// Runs `work` over `settings.inputs` (those in `skipped` left out), hands each result to
  /// `emit` in completion order, draws the progress, writes the summary. Exit status: 0 when
  /// every input succeeded, 1 when any failed, 130 when interrupted before every input ran.
  static func runBatch(
    _ settings: BatchSettings, skipping skipped: Set<String> = [],
    work: @escaping @Sendable (BatchInput) async throws(ArtworkError) -> [(String, JSONValue)],
    emit: (BatchResult) -> Void
  ) async -> Int32 {
    let inputs = settings.inputs.filter { !skipped.contains($0.text) }
    let interruption = Interruption()
    let command = name
    let sources = interruption.listen {
      Console.printRaw("\nartwork \(command): interrupted; letting the running inputs finish\n")
    }
    var progress = ProgressLine(
      total: inputs.count, enabled: settings.progress, inPlace: isatty(2) == 1)
    let started = await BatchRun(jobs: settings.jobs, interruption: interruption).run(
      inputs, work
    ) { result in
      emit(result)
      progress.record(ok: result.ok)
    }
    for source in sources { source.cancel() }
    let interrupted = started < inputs.count
    Console.printError(
      progress.summary(
        command: command, skipped: settings.inputs.count - inputs.count, interrupted: interrupted))
    if interrupted { return 130 }
    return progress.failed > 0 ? 1 : 0
  }
}
