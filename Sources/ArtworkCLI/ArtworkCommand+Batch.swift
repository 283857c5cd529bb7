import ArtworkCore
import ArtworkService
import Foundation
import Imaging
import SafeFetch

#if canImport(Glibc)
  import Glibc
#endif

/// What the batch commands (`process`, `thumbhash`) share: inputs, jobs, progress, the loader,
/// and the run with its summary and exit status.
struct BatchSettings {
  var inputs: [BatchInput]
  var jobs: Int
  var progress: Bool

  /// The options both commands take, with their values.
  static let valued: Set<String> = ["--jobs", "--from", "--progress"]

  /// Reads `--jobs N` (default: the number of cores), `--progress auto|always|never` (auto:
  /// when standard error is a terminal), and the inputs (operands and `--from` lists).
  init(_ parsed: ParsedArguments, command: String) throws(UsageError) {
    if let text = parsed["--jobs"] {
      guard let number = Int(text), (1...256).contains(number) else {
        throw UsageError(command, "--jobs \(text) is not a number from 1 to 256")
      }
      jobs = number
    } else {
      jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    }
    switch parsed["--progress"] ?? "auto" {
    case "auto": progress = isatty(2) == 1
    case "always": progress = true
    case "never": progress = false
    case let other:
      throw UsageError(command, "--progress \(other) is not one of auto, always, never")
    }
    guard !parsed.operands.isEmpty || parsed["--from"] != nil else {
      throw UsageError(command, "an INPUT is required (a file, a directory, a URL or -)")
    }
    inputs = try BatchInput.expand(
      parsed.operands, from: parsed["--from"].map { [$0] } ?? [], command: command)
  }
}

extension ArtworkCommand {
  /// The loader and processor a batch uses: the service's limits and fetcher settings
  /// (`sizeLimit` false lifts the byte limit), `jobs` image threads and as many for files.
  static func batchLoader(_ config: ServiceConfig, jobs: Int, sizeLimit: Bool)
    throws(ArtworkError) -> SourceLoader
  {
    let processor = try processor(config, workers: jobs, sizeLimit: sizeLimit)
    let fetcher = try SourceFetcher(
      config.fetchConfiguration(maxBytes: sizeLimit ? nil : Int.max),
      pool: FetchPool(threads: jobs, queueLimit: jobs * 2))
    let io = BlockingPool<Void>(name: "artwork-io", threads: jobs, queueLimit: jobs * 2)
    return SourceLoader(processor: processor, fetcher: fetcher, io: io)
  }

  /// Runs `work` over `inputs` (those in `skipped` left out), hands each result to `emit` in
  /// completion order, draws the progress, writes the summary. Exit status: 0 when every input
  /// succeeded, 1 when any failed, 130 when interrupted before every input ran.
  static func runBatch(
    _ command: String, _ settings: BatchSettings, skipping skipped: Set<String> = [],
    work: @escaping @Sendable (BatchInput) async throws(ArtworkError) -> [(String, JSONValue)],
    emit: (BatchResult) -> Void
  ) async -> Int32 {
    let inputs = settings.inputs.filter { !skipped.contains($0.text) }
    let interruption = Interruption()
    let sources = interruption.listen {
      printRaw("\nartwork \(command): interrupted; letting the running inputs finish\n")
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
    printError(
      progress.summary(
        command: command, skipped: settings.inputs.count - inputs.count, interrupted: interrupted))
    if interrupted { return 130 }
    return progress.failed > 0 ? 1 : 0
  }

  /// Writes `text` to standard error as it is (no newline added).
  static func printRaw(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
