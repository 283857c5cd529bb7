import ArtworkCore
import SafeFetch
import WorkerHost

extension ServiceConfig {
  /// The variables that decide which sources are accepted and how they are fetched: the command
  /// line reads these (and only these) so that `artwork process` and `artwork thumbhash` judge a
  /// file or URL exactly as the service would, whatever else the environment holds.
  public static let sourceKeys: Set<String> = [
    "ARTWORK_MAX_SOURCE_BYTES", "ARTWORK_MAX_PIXELS", "ARTWORK_PRIVATE_SOURCES",
    "ARTWORK_CA_FILE", "ARTWORK_FETCH_TIMEOUT", "ARTWORK_WORKER_MEMORY", "ARTWORK_WORKER_TIMEOUT",
  ]

  /// Largest source image accepted, uploaded or fetched, in bytes.
  public var sourceByteLimit: Int { maxSourceBytes }

  /// Largest source width x height decoded.
  public var sourcePixelLimit: Int { maxPixels }

  /// How image workers run: `count` of them (default `ARTWORK_WORKERS`) with `queueLimit` jobs
  /// waiting (default `ARTWORK_QUEUE`), within the memory and time of one image.
  public func workerSettings(count: Int? = nil, queueLimit: Int? = nil) -> WorkerSettings {
    WorkerSettings(
      executable: workerExecutable, count: count ?? workers,
      queueLimit: queueLimit ?? self.queueLimit, memoryBytes: workerMemory,
      timeout: workerTimeout)
  }

  /// How source URLs are fetched: the address policy, the byte limit, the time budget and the
  /// trusted CAs. `maxBytes` replaces the byte limit (the CLI's `--no-size-limit`).
  public func fetchConfiguration(maxBytes: Int? = nil) -> SourceFetcher.Configuration {
    SourceFetcher.Configuration(
      policy: AddressPolicy(privateSources: privateSourceList),
      maxBytes: maxBytes ?? maxSourceBytes, fetchTimeout: fetchTimeout, caFile: caFile)
  }

  /// The fingerprint of the settings a source URL's result depends on (the limits, the address
  /// policy, the CAs, the time budgets): a remembered result made under others is not answered.
  /// Names in the allow-list are sorted, so reordering it changes nothing.
  var resultSettings: String {
    let parts = [
      "bytes=\(maxSourceBytes)", "pixels=\(maxPixels)",
      "private=\(privateSources.map { $0.lowercased() }.sorted().joined(separator: ","))",
      "ca=\(caFile ?? "")", "fetch=\(fetchTimeout)", "worker=\(workerMemory)/\(workerTimeout)",
    ]
    return SHA256.hex(Array(parts.joined(separator: "|").utf8)).prefix(16).description
  }
}
