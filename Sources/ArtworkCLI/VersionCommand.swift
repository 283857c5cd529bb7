import ArtworkCore
import ArtworkService
import WorkerHost

/// `artwork version` (or `artwork --version`): this build's version and libvips'.
///
/// libvips' version is asked of a worker process, started as `serve` starts its own: this
/// process never loads libvips (nothing in the command line can call a decoder), and the
/// answer is the one the service reports on `/healthz`.
enum VersionCommand: Subcommand {
  static let name = "version"
  static let aliases: Set<String> = ["--version"]
  static let synopsis = "version"
  static let summary = "Print the version (also: artwork --version)"
  static let help = """
    artwork version

    Prints the version of artwork and of the libvips it runs with (also: artwork --version).
    libvips' is asked of one worker process, started and locked down as the service's are:
    exit status 1 when none starts.

    """

  static func run(_ parsed: ParsedArguments, environment: [String: String]) async throws(UsageError)
    -> Int32
  {
    guard parsed.operands.isEmpty else { throw unexpected(parsed.operands[0]) }
    let settings: WorkerSettings
    do {
      // The worker settings the batch commands read (ARTWORK_WORKER_MEMORY...), one worker.
      settings = try ServiceConfig(
        environment: environment.filter { ServiceConfig.sourceKeys.contains($0.key) }
      ).workerSettings(count: 1, queueLimit: 0)
    } catch {
      throw UsageError(name, "invalid configuration: " + error.problems.joined(separator: "; "))
    }
    Console.printOut("artwork \(BuildInfo.version)\n")
    let pool: WorkerPool
    do {
      pool = try WorkerPool(settings)
    } catch {
      Console.printError(
        "artwork version: no worker started to tell libvips' version: "
          + (error.internalDetail ?? error.detail))
      return 1
    }
    Console.printOut("libvips \(pool.libvipsVersion)\n")
    _ = await pool.shutdown(within: .seconds(1))
    return 0
  }
}
