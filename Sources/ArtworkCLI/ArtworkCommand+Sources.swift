import ArtworkCore
import ArtworkService
import ImageWorkers
import Imaging

extension ArtworkCommand {
  /// The service's source settings (limits, address policy, fetch budget) read from the
  /// variables in `ServiceConfig.sourceKeys` only, with the service's defaults and validation:
  /// the rest of a server's environment (its listen address, its tokens) is not this
  /// command's business. A bad value is a usage error.
  static func sourceConfig(_ command: String, environment: [String: String]) throws(UsageError)
    -> ServiceConfig
  {
    do {
      return try ServiceConfig(
        environment: environment.filter { ServiceConfig.sourceKeys.contains($0.key) })
    } catch {
      throw UsageError(command, "invalid configuration: " + error.problems.joined(separator: "; "))
    }
  }

  /// A processor with the service's limits on `workers` worker processes (this executable's,
  /// as the service's are: an input that kills one fails its own line, and the batch goes on);
  /// `sizeLimit` false lifts the byte limit (`--no-size-limit`), never the pixel limit.
  static func processor(_ config: ServiceConfig, workers: Int, sizeLimit: Bool = true)
    throws(ArtworkError) -> ArtworkProcessor
  {
    // Enough waiting room that the batch's own jobs never meet a full queue.
    let pool = try WorkerPool(config.workerSettings(count: workers, queueLimit: workers * 2))
    return ArtworkProcessor(
      workers: pool, maxSourceBytes: sizeLimit ? config.sourceByteLimit : Int.max,
      maxPixels: config.sourcePixelLimit)
  }
}
