import ArtworkCore
import Observability
import Storage

/// Builds the storage backend the configuration names.
enum StorageFactory {
  static func make(config: ServiceConfig, logger: Logger) async throws(StartupError)
    -> any ArtworkStorage
  {
    switch config.storage {
    case .fileSystem(let directory):
      do {
        return try FileSystemStorage(
          directory: directory, threads: config.storageThreads, minFreeBytes: config.minFreeBytes)
      } catch {
        throw StartupError("cannot open storage \(config.storageDescription): \(error.detail)")
      }
    case .s3(let bucket, let prefix):
      let settings = config.s3
      let storage = S3Storage(
        configuration: S3Configuration(
          endpoint: settings.endpoint, region: settings.region, bucket: bucket, prefix: prefix,
          accessKey: settings.accessKeyID, secretKey: settings.secretAccessKey,
          virtualHosted: settings.virtualHosted),
        // Hosted-image GETs wait on the store's latency, not on CPU: 4 transfers at once capped
        // GET /v1/images at about 0.4x of direct GETs at concurrency 32 (BENCHMARKS.md, S3).
        threads: config.storageThreads)
      // Start anyway: the store may come up later. /readyz keeps saying why until it does.
      if let problem = await storage.readinessProblem() {
        logger.error(
          "storage not ready",
          ["storage": .string(config.storageDescription), "problem": .string(problem.detail)])
      }
      return storage
    }
  }
}
