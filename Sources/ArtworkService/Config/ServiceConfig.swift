import ArtworkCore
import Foundation
import HTTP
import Observability
import SafeFetch

/// Every setting of the service: one value, read once at start-up from an environment and
/// validated as a whole. Each key is documented in `ServiceConfig.documentation` (docs/configuration.md's
/// table comes from there).
public struct ServiceConfig: Sendable {
  /// Where the HTTP server listens (`ARTWORK_LISTEN`).
  public var listen: ListenAddress
  /// Base of every hosted image URL, without a trailing slash (`ARTWORK_PUBLIC_URL`).
  var publicURL: String
  /// Whether `ARTWORK_PUBLIC_URL` was left unset, so that it follows the bound address.
  var publicURLFollowsListen: Bool
  /// Where artwork is stored (`ARTWORK_STORAGE`).
  var storage: StorageLocation
  /// The S3 endpoint, region and credentials (`ARTWORK_S3_*`).
  var s3: S3Settings
  /// Named bearer tokens accepted on write endpoints, from `ARTWORK_API_TOKENS`.
  var apiTokens: [APIToken]
  /// `ARTWORK_API_TOKENS_FILE`: more named tokens, re-read on SIGHUP; nil when unset.
  var apiTokensFile: String?
  /// The tokens `apiTokensFile` held at start-up.
  var fileTokens: [APIToken]
  /// Requests a minute each token may make (`ARTWORK_API_RATE`); 0: no limit.
  var apiRate: Int
  /// The token names that may delete any image (`ARTWORK_ADMIN_TOKENS`); the others delete
  /// only what they created (`ImageOwners`).
  var adminTokens: [String]
  /// Whether write endpoints need a token: some are configured, or a token file is (an empty
  /// file lets nobody in, so revoking the last token never opens the service).
  var requiresToken: Bool { !apiTokens.isEmpty || apiTokensFile != nil }
  /// Set when an operator accepts anonymous writes on a non-loopback address.
  var allowAnonymous: Bool
  /// Largest source image accepted, uploaded or fetched (`ARTWORK_MAX_SOURCE_BYTES`).
  var maxSourceBytes: Int
  /// Largest source width x height decoded (`ARTWORK_MAX_PIXELS`).
  var maxPixels: Int
  /// Worker processes doing image work (`ARTWORK_WORKERS`).
  var workers: Int
  /// Memory one worker may use (`ARTWORK_WORKER_MEMORY`).
  var workerMemory: Int
  /// Longest one image may take in its worker (`ARTWORK_WORKER_TIMEOUT`).
  var workerTimeout: Duration
  /// The executable workers run: the service's own. Not a variable: tests that run the
  /// service inside the test process set it to the built `artwork`.
  public var workerExecutable = "/proc/self/exe"
  /// Threads for source fetches (and as many for their name lookups).
  var fetchThreads: Int
  /// Threads for storage operations (S3 transfers or file operations).
  var storageThreads: Int
  /// HTTP server threads (epoll loops).
  var httpThreads: Int
  /// Jobs allowed to wait for a worker before requests are answered 503.
  var queueLimit: Int
  /// Total time for one source fetch (`ARTWORK_FETCH_TIMEOUT`).
  var fetchTimeout: Duration
  /// Extra CA bundle for fetching sources (a private CA), or nil for the system's.
  var caFile: String?
  /// Hosts and CIDRs that sources may come from although private, as written (not parsed here).
  var privateSources: [String]
  /// `privateSources` parsed: the networks and host names a source may be fetched from
  /// although private.
  var privateSourceList: PrivateSourceAllowList
  /// The reverse proxies whose `X-Forwarded-For` names the client (`ARTWORK_TRUSTED_PROXIES`).
  var trustedProxies: TrustedProxies
  /// How client addresses group into the networks that hold a share of the service
  /// (`ARTWORK_CLIENT_PREFIX_V4`, `ARTWORK_CLIENT_PREFIX_V6`).
  var clientNetworks: ClientNetworks
  /// Query parameters whose values are written down as `REDACTED`.
  var secretParameters: SecretParameters
  /// The key of the hash that names URL cache records (`ARTWORK_CACHE_KEY`).
  var cacheKey: [UInt8]
  /// Room an upload body has beyond the image itself, for multipart framing.
  static let formOverhead = 64 * 1024

  /// The default body memory: `uploads` bodies of `uploadBytes` (what the workers and their
  /// queue can take at once: no more upload bodies are admitted), plus 16 MiB for the JSON
  /// routes' small bodies.
  static func bodyMemoryFor(uploads: Int, uploadBytes: Int) -> Int {
    let (bodies, overflow) = max(1, uploads).multipliedReportingOverflow(by: uploadBytes)
    return min(1 << 40, overflow ? 1 << 40 : bodies + (16 << 20))
  }

  /// The record-naming key when none is configured.
  static let defaultCacheKey = Array("artwork-source-cache-v1".utf8)
  /// The pages on other origins that may call the API from a browser.
  var crossOrigin: CrossOriginPolicy
  var sourceTTL: Duration
  var failureTTL: Duration
  /// Free bytes the filesystem backend keeps: new objects are refused (507) below it.
  var minFreeBytes: Int
  /// How long an object may go unrequested before it is swept; nil keeps objects forever.
  var retention: Duration?
  var shutdownGrace: Duration
  /// How long a readiness verdict holds (`ARTWORK_READINESS_INTERVAL`): storage is probed at
  /// most this often, whatever the rate of `/readyz` and `/metrics`.
  var readinessInterval: Duration
  /// How long `/readyz` waits for a storage probe (`ARTWORK_READINESS_TIMEOUT`).
  var readinessTimeout: Duration
  /// The bearer token `/metrics` needs (`ARTWORK_METRICS_TOKEN`); nil: public.
  var metricsToken: String?
  /// Concurrent HTTP connections (`ARTWORK_MAX_CONNECTIONS`).
  var maxConnections: Int
  /// Connections one client address may hold open at once.
  var maxConnectionsPerClient: Int
  /// Time a request head has to arrive whole.
  var headTimeout: Duration
  /// Time a kept-alive connection may wait for its next request.
  var idleTimeout: Duration
  /// Slowest average rate a request body may arrive at, and an answer be taken at (bytes per
  /// second; 0: no minimum).
  var bodyMinRate: Int
  /// Time a handler has to answer, from the request's last byte; later is 503.
  var handlerTimeout: Duration
  /// How long a refused request's body is still read and dropped so its answer arrives.
  var lingerTimeout: Duration
  /// The most bytes read and dropped that way per connection.
  var discardBytes: Int
  /// Memory all request bodies held at once may use.
  var bodyMemory: Int
  /// Bytes of recently served images kept in memory (0 turns the cache off).
  var imageCacheBytes: Int
  /// Whether the page for people is served at `/` (`ARTWORK_UI`); `/openapi.json` always is.
  var ui: Bool
  /// The least severe level written (`ARTWORK_LOG_LEVEL`).
  public var logLevel: LogLevel
  /// Settings that work but will probably not do what the operator wants (log them at start-up).
  public var warnings: [String]
  /// The keys this value read, in order (the documentation test checks them).
  let keysRead: [String]

  /// Reads and validates every setting. `processorCount` is the default worker count;
  /// `descriptors` (the soft `RLIMIT_NOFILE`) sizes the default connection limit.
  ///
  /// Throws one `ConfigError` listing every problem found, including unknown `ARTWORK_*`
  /// variables (a typo must not silently fall back to a default).
  public init(
    environment: [String: String],
    processorCount: Int = ProcessInfo.processInfo.activeProcessorCount,
    descriptors: Int = DescriptorLimit.current
  ) throws(ConfigError) {
    var reader = ConfigReader(environment: environment)
    var warnings: [String] = []

    listen = reader.value(
      "ARTWORK_LISTEN", default: ListenAddress(host: "127.0.0.1", port: 8080)!,
      accepted: "expected host:port or [IPv6]:port with an IP address or localhost",
      ListenAddress.init(parsing:))
    // Unset, it follows the listen address: the URLs answered are where this service is.
    publicURLFollowsListen =
      environment["ARTWORK_PUBLIC_URL"].map(HeaderSyntax.trimmed)?.isEmpty ?? true
    let url = reader.value(
      "ARTWORK_PUBLIC_URL", default: PublicURL.following(listen),
      accepted: "expected an absolute http(s) URL without user, query or fragment",
      PublicURL.init(parsing:))
    publicURL = url.text
    storage = reader.value(
      "ARTWORK_STORAGE", default: .fileSystem(directory: "./data"),
      accepted: "expected a directory path or s3://BUCKET/optional/prefix (a valid bucket name)",
      StorageLocation.init(parsing:))
    s3 = Self.readS3(&reader, storage: storage)
    minFreeBytes = reader.integer("ARTWORK_MIN_FREE_BYTES", default: 64 << 20, range: 0...(1 << 50))

    apiTokens = Self.readTokens(&reader)
    (apiTokensFile, fileTokens) = Self.readTokenFile(&reader)
    for conflict in APIToken.conflicts(apiTokens + fileTokens) {
      reader.problem("ARTWORK_API_TOKENS and ARTWORK_API_TOKENS_FILE: \(conflict)")
    }
    apiRate = reader.integer("ARTWORK_API_RATE", default: 0, range: 0...1_000_000)
    adminTokens = Self.readAdminTokens(&reader)
    allowAnonymous = reader.boolean("ARTWORK_ALLOW_ANONYMOUS", default: false)
    maxSourceBytes = reader.integer(
      "ARTWORK_MAX_SOURCE_BYTES", default: 2_000_000, range: 1...50_000_000)
    maxPixels = reader.integer("ARTWORK_MAX_PIXELS", default: 40_000_000, range: 1...1_000_000_000)
    workers = reader.integer("ARTWORK_WORKERS", default: max(1, processorCount), range: 1...256)
    workerMemory = reader.integer(
      "ARTWORK_WORKER_MEMORY", default: 512 << 20, range: (64 << 20)...(16 << 30))
    workerTimeout = reader.duration(
      "ARTWORK_WORKER_TIMEOUT", default: .seconds(5),
      range: .milliseconds(100)...(.seconds(300)), rangeText: "from 100ms to 300s")
    queueLimit = reader.integer("ARTWORK_QUEUE", default: 16, range: 0...100_000)
    fetchThreads = reader.integer("ARTWORK_FETCH_THREADS", default: 16, range: 1...256)
    storageThreads = reader.integer("ARTWORK_STORAGE_THREADS", default: 16, range: 1...256)
    // A loop per two cores: the loops only move bytes, the workers (one per core) need the
    // cores for images, and a loop that serves more connections finds more of them ready per
    // wake-up (BENCHMARKS.md, "Loops per core").
    httpThreads = reader.integer(
      "ARTWORK_HTTP_THREADS", default: min(max(1, (processorCount + 1) / 2), 8), range: 1...64)
    fetchTimeout = reader.duration(
      "ARTWORK_FETCH_TIMEOUT", default: .seconds(8), range: .milliseconds(1)...(.seconds(300)),
      rangeText: "from 1ms to 300s")
    caFile = reader.value(
      "ARTWORK_CA_FILE", default: nil,
      accepted: "expected the path of a readable PEM file that exists"
    ) { path in
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
        !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: path)
      else { return nil }
      return .some(path)
    }
    privateSources = Self.list(reader.text("ARTWORK_PRIVATE_SOURCES"))
    var allowListProblems: [String] = []
    privateSourceList = PrivateSourceAllowList(
      parsing: privateSources.joined(separator: ","), problems: &allowListProblems)
    // The allow-list's problems name the variable already.
    for problem in allowListProblems { reader.problem(problem) }
    secretParameters = Self.readSecretParameters(&reader)
    var proxyProblems: [String] = []
    let proxies = reader.text("ARTWORK_TRUSTED_PROXIES")
    trustedProxies =
      proxies?.lowercased() == "none"
      ? .none
      : TrustedProxies(
        parsing: proxies.map { Self.list($0) } ?? TrustedProxies.loopback,
        problems: &proxyProblems)
    for problem in proxyProblems { reader.problem(problem) }
    clientNetworks = ClientNetworks(
      v4Prefix: reader.integer("ARTWORK_CLIENT_PREFIX_V4", default: 24, range: 8...32),
      v6Prefix: reader.integer("ARTWORK_CLIENT_PREFIX_V6", default: 64, range: 16...128))
    cacheKey =
      reader.text("ARTWORK_CACHE_KEY").flatMap { $0.isEmpty ? nil : Array($0.utf8) }
      ?? Self.defaultCacheKey
    crossOrigin = Self.readCrossOrigin(&reader)
    sourceTTL = reader.duration(
      "ARTWORK_SOURCE_TTL", default: .seconds(600), range: .zero...(.seconds(7 * 86400)),
      rangeText: "from 0 to 168h")
    failureTTL = reader.duration(
      "ARTWORK_FAILURE_TTL", default: .seconds(30), range: .zero...(.seconds(86400)),
      rangeText: "from 0 to 24h")
    let keep = reader.duration(
      "ARTWORK_RETENTION", default: .seconds(30 * 86400), range: .zero...(.seconds(3650 * 86400)),
      rangeText: "up to 3650d (0 keeps forever)")
    retention = keep == .zero ? nil : keep
    shutdownGrace = reader.duration(
      "ARTWORK_SHUTDOWN_GRACE", default: .seconds(8), range: .zero...(.seconds(600)),
      rangeText: "from 0 to 600s")
    readinessInterval = reader.duration(
      "ARTWORK_READINESS_INTERVAL", default: .seconds(2), range: .zero...(.seconds(300)),
      rangeText: "from 0 to 300s")
    metricsToken = Self.readMetricsToken(&reader)
    readinessTimeout = reader.duration(
      "ARTWORK_READINESS_TIMEOUT", default: .seconds(2),
      range: .milliseconds(100)...(.seconds(300)), rangeText: "from 100ms to 300s")
    imageCacheBytes = reader.integer(
      "ARTWORK_IMAGE_CACHE_BYTES", default: 32 << 20, range: 0...(8 << 30))
    maxConnections = reader.integer(
      "ARTWORK_MAX_CONNECTIONS", default: DescriptorLimit.connections(descriptors: descriptors),
      range: 1...100_000)
    maxConnectionsPerClient = reader.integer(
      "ARTWORK_MAX_CONNECTIONS_PER_CLIENT", default: 256, range: 1...100_000)
    headTimeout = reader.duration(
      "ARTWORK_HEAD_TIMEOUT", default: .seconds(10), range: .zero...(.seconds(600)),
      rangeText: "from 0 (no deadline) to 600s")
    idleTimeout = reader.duration(
      "ARTWORK_IDLE_TIMEOUT", default: .seconds(75), range: .zero...(.seconds(3600)),
      rangeText: "from 0 (never) to 3600s")
    bodyMinRate = reader.integer(
      "ARTWORK_BODY_MIN_RATE", default: 16384, range: 0...1_000_000_000)
    handlerTimeout = reader.duration(
      "ARTWORK_HANDLER_TIMEOUT", default: .seconds(60), range: .zero...(.seconds(3600)),
      rangeText: "from 0 (no deadline) to 3600s")
    lingerTimeout = reader.duration(
      "ARTWORK_LINGER_TIMEOUT", default: .seconds(10), range: .zero...(.seconds(600)),
      rangeText: "from 0 to 600s")
    discardBytes = reader.integer(
      "ARTWORK_DISCARD_BYTES", default: 64 << 20, range: 0...(1 << 40))
    bodyMemory = reader.integer(
      "ARTWORK_BODY_MEMORY",
      default: Self.bodyMemoryFor(
        uploads: workers + queueLimit, uploadBytes: maxSourceBytes + Self.formOverhead),
      range: (1 << 20)...(1 << 40))
    ui = reader.boolean("ARTWORK_UI", default: true)
    logLevel = reader.value(
      "ARTWORK_LOG_LEVEL", default: .info, accepted: "expected debug, info, warn or error",
      LogLevel.init(name:))

    // `requiresToken`, before self is whole.
    let tokenRequired = !apiTokens.isEmpty || apiTokensFile != nil
    if !listen.isLoopback && !tokenRequired && !allowAnonymous {
      reader.problem(
        "ARTWORK_LISTEN=\"\(listen)\" is reachable from other machines but ARTWORK_API_TOKENS "
          + "is empty: set ARTWORK_API_TOKENS, or ARTWORK_ALLOW_ANONYMOUS=1 to accept "
          + "anonymous requests on purpose")
    }
    if !listen.isLoopback && !tokenRequired && allowAnonymous {
      warnings.append(
        "ARTWORK_ALLOW_ANONYMOUS: anyone who can reach \(listen) can store images here, and delete them"
      )
    }
    warnings += Self.publicURLWarnings(url)
    Self.checkUnknownKeys(&reader)

    if maxConnections > DescriptorLimit.connections(descriptors: descriptors) {
      warnings.append(
        "ARTWORK_MAX_CONNECTIONS=\(maxConnections) leaves too few of the \(descriptors) "
          + "descriptors the process may hold (RLIMIT_NOFILE) for workers, storage and bodies: "
          + "raise the limit (systemd: LimitNOFILE) or lower the setting")
    }
    self.warnings = warnings
    self.keysRead = reader.keysRead
    guard reader.problems.isEmpty else { throw ConfigError(problems: reader.problems) }
  }
}
