import Observability

extension Metrics {
  /// HTTP requests answered, by route, status and caller (a configured token's name, or
  /// `anonymous`: a bounded set).
  static let requests = MetricFamily(
    name: "artwork_http_requests_total",
    help: "HTTP requests answered, by route, status and caller (the token's name, or anonymous).",
    type: .counter, labels: ["route", "status", "caller"], buckets: [])
  /// Requests refused with 429 because their caller was over `ARTWORK_API_RATE`.
  static let rateLimited = MetricFamily(
    name: "artwork_api_rate_limited_total",
    help: "Requests refused with 429 because their token was over ARTWORK_API_RATE, by caller.",
    type: .counter, labels: ["caller"], buckets: [])
  /// Write requests refused for their token: 401 (missing or wrong), or 429 while their address
  /// is over `ARTWORK_API_RATE`'s count of such requests (`FailedTokenLimit`).
  static let tokenRefusals = MetricFamily(
    name: "artwork_api_token_refusals_total",
    help:
      "Write requests refused for their token, by status: 401 (missing or wrong), or 429 while their address was over ARTWORK_API_RATE of them.",
    type: .counter, labels: ["status"], buckets: [])
  /// Re-reads of `ARTWORK_API_TOKENS_FILE` (SIGHUP), by result: `ok` (the new set in force) or
  /// `refused` (the file had a problem: the set in force stays).
  static let tokenReloads = MetricFamily(
    name: "artwork_api_token_reloads_total",
    help:
      "Re-reads of ARTWORK_API_TOKENS_FILE on SIGHUP, by result: ok (the new tokens are in force) or refused (the previous tokens stay).",
    type: .counter, labels: ["result"], buckets: [])
  static let requestDuration = MetricFamily(
    name: "artwork_http_request_duration_seconds",
    help: "Time from request to response, by route.", type: .histogram, labels: ["route"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])
  static let artworkCreated = MetricFamily(
    name: "artwork_created_total", help: "Artwork objects created (newly stored).",
    type: .counter, labels: [], buckets: [])
  static let imagesDeleted = MetricFamily(
    name: "artwork_images_deleted_total", help: "Hosted images deleted on request.",
    type: .counter, labels: [], buckets: [])
  static let contentArtwork = MetricFamily(
    name: "artwork_content_artwork_total",
    help:
      "/v1/content answers with an image_url to fill, by Artwork-Status: ready, pending (not ready within Prefer: wait) or failed.",
    type: .counter, labels: ["status"], buckets: [])
  static let providerEvents = MetricFamily(
    name: "artwork_provider_events_total",
    help:
      "/v1/providers/{provider} answers, by provider and Artwork-Status: ready, pending, failed or none (an event without artwork).",
    type: .counter, labels: ["provider", "status"], buckets: [])
  static let bytesStored = MetricFamily(
    name: "artwork_stored_bytes_total", help: "Bytes of artwork newly stored.", type: .counter,
    labels: [], buckets: [])
  /// Source URL fetches, by outcome.
  static let fetches = MetricFamily(
    name: "artwork_source_fetches_total", help: "Source URL fetches, by outcome.",
    type: .counter, labels: ["outcome"], buckets: [])
  static let cacheLookups = MetricFamily(
    name: "artwork_cache_lookups_total", help: "Source result cache lookups, by result.",
    type: .counter, labels: ["result"], buckets: [])
  static let queueRejections = MetricFamily(
    name: "artwork_queue_rejections_total",
    help: "Requests refused with 503 because the worker queue was full.", type: .counter,
    labels: [], buckets: [])
  static let callerRefusals = MetricFamily(
    name: "artwork_caller_refusals_total",
    help:
      "Requests refused with 503 because a queue or a caller's share of it was full, by caller (a token's name, or anonymous).",
    type: .counter, labels: ["caller"], buckets: [])
  static let workersBusy = MetricFamily(
    name: "artwork_workers_busy", help: "Workers running a job now.", type: .gauge, labels: [],
    buckets: [])
  static let queueWaiting = MetricFamily(
    name: "artwork_queue_waiting", help: "Jobs waiting for a worker now.", type: .gauge,
    labels: [], buckets: [])

  static let workers = MetricFamily(
    name: "artwork_workers", help: "Image worker processes (ARTWORK_WORKERS).", type: .gauge,
    labels: [],
    buckets: [])
  /// Jobs whose worker died or was killed, by what the image made it do.
  static let workerFailures = MetricFamily(
    name: "artwork_worker_failures_total",
    help: "Jobs whose worker process died or was killed, by reason: crash, timeout, memory.",
    type: .counter, labels: ["reason"], buckets: [])
  /// Jobs whose worker was ended by something other than its input, by cause.
  static let workerInterruptions = MetricFamily(
    name: "artwork_worker_interruptions_total",
    help: "Jobs whose worker process was ended by something other than its image, by cause: "
      + "killed (a signal from outside), starved (out of time with little CPU time).",
    type: .counter, labels: ["cause"], buckets: [])
  static let workerRefusals = MetricFamily(
    name: "artwork_worker_refusals_total",
    help: "Images refused without a try because they made a worker fail before, by reason.",
    type: .counter, labels: ["reason"], buckets: [])
  static let workerRestarts = MetricFamily(
    name: "artwork_worker_restarts_total",
    help: "Worker processes started in place of one that died or was killed.", type: .counter,
    labels: [], buckets: [])
  static let workerRestartFailures = MetricFamily(
    name: "artwork_worker_restart_failures_total",
    help: "Worker processes that could not be started in place of one that was gone.",
    type: .counter, labels: [], buckets: [])
  static let queueCapacity = MetricFamily(
    name: "artwork_queue_capacity", help: "Jobs that may wait for a worker (ARTWORK_QUEUE).",
    type: .gauge, labels: [], buckets: [])
  static let inFlight = MetricFamily(
    name: "artwork_http_requests_in_flight",
    help: "Requests whose head has arrived and whose answer is not yet written.", type: .gauge,
    labels: [], buckets: [])
  static let illegalTransitions = MetricFamily(
    name: "artwork_http_illegal_transitions_total",
    help: "Moves between connection states that the state table does not allow (each closed "
      + "its connection): a bug when not zero.",
    type: .counter, labels: [], buckets: [])
  static let connectionsShed = MetricFamily(
    name: "artwork_http_connections_shed_total",
    help: "Connections closed at the connection limit to admit a new one, by the state they "
      + "were in: waiting_head (no whole first request head yet; the oldest such, answered "
      + "503) or idle (kept alive between requests; the longest idle, closed silently).",
    type: .counter, labels: ["state"], buckets: [])
  static let overloadRefusals = MetricFamily(
    name: "artwork_http_overload_refusals_total",
    help: "Requests the HTTP server refused 503 by itself for load, by reason: bodies_arriving "
      + "(the caller already had as many bodies arriving as one caller may), body_memory (the "
      + "memory for request bodies was spoken for) or crowded (near the connection limit, a "
      + "write without a credential from a network holding more than its share). Full worker "
      + "or fetch queues count in artwork_queue_rejections_total instead.",
    type: .counter, labels: ["reason"], buckets: [])
  /// Time per stage of making artwork, on the thread that did it.
  static let stageDuration = MetricFamily(
    name: "artwork_stage_duration_seconds",
    help: "Time per stage of making artwork: fetch (a source URL), decode_frame (header, "
      + "decode at the chosen shrink, framing), encode, thumbhash (decode of the stored "
      + "bytes and the hash), store.",
    type: .histogram, labels: ["stage"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])
  static let imageCacheHits = MetricFamily(
    name: "artwork_image_cache_hits_total",
    help: "Hosted-image GETs answered from the hot-image cache.", type: .counter,
    labels: [], buckets: [])
  static let imageCacheMisses = MetricFamily(
    name: "artwork_image_cache_misses_total",
    help: "Hosted-image GETs that read storage.", type: .counter, labels: [], buckets: [])
  static let imageCacheBytes = MetricFamily(
    name: "artwork_image_cache_bytes", help: "Bytes the hot-image cache holds in memory.",
    type: .gauge, labels: [], buckets: [])
  static let imageCacheEntries = MetricFamily(
    name: "artwork_image_cache_entries", help: "Images held by the hot-image cache.",
    type: .gauge, labels: [], buckets: [])
  static let imageCacheFiles = MetricFamily(
    name: "artwork_image_cache_files",
    help: "Stored files the hot-image cache holds open (filesystem storage; no memory).",
    type: .gauge, labels: [], buckets: [])
  /// `/readyz`'s last verdict: whether storage could take a new object (`ReadinessProbe`).
  static let ready = MetricFamily(
    name: "artwork_ready",
    help: "1 when /readyz's last verdict is ready (storage could take a new object), else 0.",
    type: .gauge, labels: [], buckets: [])
  /// Free bytes of the storage filesystem (not on S3).
  static let storageFreeBytes = MetricFamily(
    name: "artwork_storage_free_bytes",
    help: "Bytes free on the storage directory's filesystem (filesystem storage only).",
    type: .gauge, labels: [], buckets: [], onlyWhenSet: true)
  /// `ARTWORK_MIN_FREE_BYTES` of the filesystem backend (not on S3).
  static let storageMinFreeBytes = MetricFamily(
    name: "artwork_storage_min_free_bytes",
    help: "Bytes the storage filesystem keeps free: below it new images are refused with 507 "
      + "(ARTWORK_MIN_FREE_BYTES; filesystem storage only).",
    type: .gauge, labels: [], buckets: [], onlyWhenSet: true)
  /// Reads and writes of remembered URL results that storage failed.
  static let resultCacheFailures = MetricFamily(
    name: "artwork_result_cache_failures_total",
    help: "Reads and writes of remembered URL results (records in storage) that failed, by "
      + "operation: read or write.",
    type: .counter, labels: ["operation"], buckets: [])
  static let logLinesDropped = MetricFamily(
    name: "artwork_log_lines_dropped_total",
    help: "Log lines dropped because standard error was too slow and its buffer full.",
    type: .counter, labels: [], buckets: [])
  static let buildInfo = MetricFamily(
    name: "artwork_build_info", help: "Always 1; the labels say what runs.", type: .gauge,
    labels: ["version", "libvips"], buckets: [])
  static let residentMemory = MetricFamily(
    name: "process_resident_memory_bytes", help: "Resident memory size in bytes.",
    type: .gauge, labels: [], buckets: [])
  static let virtualMemory = MetricFamily(
    name: "process_virtual_memory_bytes", help: "Virtual memory size in bytes.", type: .gauge,
    labels: [], buckets: [])
  static let cpuSeconds = MetricFamily(
    name: "process_cpu_seconds_total", help: "User and system CPU time spent in seconds.",
    type: .counter, labels: [], buckets: [])
  static let openDescriptors = MetricFamily(
    name: "process_open_fds", help: "Number of open file descriptors.", type: .gauge,
    labels: [], buckets: [])
  static let maxDescriptors = MetricFamily(
    name: "process_max_fds", help: "Maximum number of open file descriptors.", type: .gauge,
    labels: [], buckets: [])
  static let startTime = MetricFamily(
    name: "process_start_time_seconds", help: "Start time of the process since 1970 in seconds.",
    type: .gauge, labels: [], buckets: [])

  /// The stages `stageDuration` is labelled with.
  static let stages = ["fetch", "decode_frame", "encode", "thumbhash", "store"]

  /// Every family, in the order `render()` writes them.
  static let families: [MetricFamily] = [
    buildInfo, requests, requestDuration, rateLimited, tokenRefusals, tokenReloads, inFlight,
    artworkCreated, imagesDeleted,
    contentArtwork, providerEvents, bytesStored,
    stageDuration,
    fetches, cacheLookups, resultCacheFailures, imageCacheHits, imageCacheMisses, imageCacheBytes,
    imageCacheEntries, imageCacheFiles,
    queueRejections, callerRefusals, workers, workersBusy, queueCapacity, queueWaiting,
    workerFailures, workerInterruptions,
    workerRefusals, workerRestarts, workerRestartFailures, illegalTransitions, connectionsShed,
    overloadRefusals,
    logLinesDropped, ready, storageFreeBytes, storageMinFreeBytes,
    residentMemory,
    virtualMemory, cpuSeconds, openDescriptors, maxDescriptors, startTime,
  ]
}
