import ArtworkCore
import Foundation
import HTTP
import Observability
import Storage
import WorkerHost

/// A running service: the app behind an HTTP server, with access logs and graceful shutdown.
public final class ArtworkServer: Sendable {
  let app: ArtworkApp
  private let server: HTTPServer
  private let grace: Duration
  private let sweeper: StorageSweeper
  /// Applies the deletions other replicas make (S3 storage shared by replicas).
  private let deletions: DeletionFollower
  /// Gives the free heap back once a second (`ProcessMemory`).
  private let heap = HeapKeeper()

  /// Listens, then builds the app from `config` (storage included), then serves. Nothing is
  /// created before the socket is bound, so a port in use leaves no trace. Call
  /// `Runtime.initialize()` once, before this.
  public convenience init(config: ServiceConfig, logger: Logger) async throws(StartupError) {
    try await self.init(config: config, logger: logger, storageLayer: { $0 })
  }

  /// `storageLayer` wraps the storage `config` names (tests observe the storage calls
  /// through it).
  init(
    config: ServiceConfig, logger: Logger,
    storageLayer: @Sendable (any ArtworkStorage) -> any ArtworkStorage
  ) async throws(StartupError) {
    let listener: HTTPListener
    do {
      listener = try HTTPListener(host: config.listen.host, port: config.listen.port)
    } catch {
      throw StartupError("cannot listen on \(config.listen): \(Self.reason(error))")
    }
    var config = config
    if config.publicURLFollowsListen {
      // The port actually bound (ARTWORK_LISTEN may ask for any free one).
      config.publicURL = PublicURL.following(config.listen, port: listener.port).text
    }
    let app = try await ArtworkApp(config: config, logger: logger, storageLayer: storageLayer)
    self.app = app
    self.grace = config.shutdownGrace
    sweeper = StorageSweeper(
      storage: app.storage, retention: config.retention,
      retentionInterval: config.retention.map(StorageSweeper.interval(for:)) ?? .seconds(3600),
      logger: logger)
    deletions = DeletionFollower(storage: app.storage, logger: logger) { [app] key in
      await app.imageMemory.forget(key)
    }
    var configuration = HTTPServerConfiguration()
    configuration.host = config.listen.host
    configuration.port = config.listen.port
    configuration.threadCount = config.httpThreads
    configuration.maxConnections = config.maxConnections
    configuration.maxConnectionsPerAddress = config.maxConnectionsPerClient
    configuration.clientNetworks = config.clientNetworks
    // A caller's bodies arriving at once: as many as the workers and their queue can take.
    configuration.maxBodiesArrivingPerShare = config.workers + config.queueLimit
    configuration.connectionSettings = (
      "ARTWORK_MAX_CONNECTIONS", "ARTWORK_MAX_CONNECTIONS_PER_CLIENT"
    )
    configuration.headTimeout = config.headTimeout
    configuration.idleTimeout = config.idleTimeout
    configuration.minBodyBytesPerSecond = config.bodyMinRate
    configuration.minSendBytesPerSecond = config.bodyMinRate
    configuration.handlerTimeout = config.handlerTimeout
    configuration.lingerTimeout = config.lingerTimeout
    configuration.maxDiscardBytes = config.discardBytes
    configuration.bodyMemoryLimit = config.bodyMemory
    configuration.crossOrigin = config.crossOrigin
    configuration.problemResponder = { problem in
      ArtworkError(problem).problemResponse(requestID: problem.requestID)
    }
    let documentation = DocumentationPaths(pageServed: config.ui)
    configuration.notFoundHint = { documentation.hint(for: $0) }
    if !config.trustedProxies.isEmpty {
      let proxies = config.trustedProxies
      configuration.speaksForClients = { peer in proxies.trusts(peerText: peer) }
      configuration.clientAddress = { peer, headers in
        proxies.client(peer: peer, headers: headers)
      }
    }
    let metrics = app.metrics
    configuration.accessLog = { record in
      // The caller is a configured token's name (set by `CallerCheck`), else anonymous.
      let caller = record.caller ?? APIToken.anonymous
      metrics.countRequest(
        route: record.route ?? "other", status: record.status, caller: caller,
        seconds: record.duration)
      // Written member by member, in name order, into the line itself: this runs for every
      // request, and a request answered from memory makes no string for it.
      logger.log(.info, "request") { line in
        line.member("bytes", record.bytesSent)
        line.member("caller") { $0.append(contentsOf: caller.utf8) }
        line.member("client") { $0.append(contentsOf: (record.remoteAddress ?? "-").utf8) }
        line.member("duration_ms", (record.duration * 1_000_000).rounded() / 1000)
        line.member("method") { $0.append(contentsOf: record.method.rawValue.utf8) }
        line.member("path") { record.appendPath(to: &$0) }
        line.member("request_id") { record.appendRequestID(to: &$0) }
        line.member("status", record.status)
      }
    }
    let router = app.router()
    metrics.seed(routes: Array(Set(router.routes.map(\.pattern))))
    metrics.seed(callers: app.authenticator.callerNames)
    do {
      server = try HTTPServer(configuration: configuration, listener: listener, router: router)
    } catch {
      throw StartupError("cannot start the HTTP server: \(Self.reason(error))")
    }
    let live = server
    metrics.inFlightSource.withLock { $0 = { live.inFlightCount } }
    metrics.illegalTransitionSource.withLock { $0 = { live.illegalTransitionCount } }
    metrics.connectionsShedSource.withLock {
      $0 = { (live.shedConnectionCount, live.idleConnectionsClosedCount) }
    }
    metrics.overloadRefusalSource.withLock { $0 = { live.overloadRefusalCounts } }
    metrics.resultFailureSource.withLock {
      $0 = { [app] in
        let artwork = app.artworkResults.storageFailures
        let thumbHash = app.thumbHashResults.storageFailures
        return (artwork.reads + thumbHash.reads, artwork.writes + thumbHash.writes)
      }
    }
  }

  /// The cause of a listen failure in lower case, as it follows a colon.
  private static func reason(_ error: HTTPServerError) -> String {
    guard case .startFailed(_, _, let reason) = error else { return error.description }
    return reason.prefix(1).lowercased() + reason.dropFirst()
  }

  /// Re-reads `ARTWORK_API_TOKENS_FILE` (on SIGHUP): the new tokens are in force for every
  /// request checked after this returns (and before it logs and counts the reload); a file that
  /// cannot be used keeps the tokens read before and logs an error naming every problem. Does
  /// nothing without a token file but say so.
  ///
  /// NOTE: `kill` returns once the signal is queued, before this has run (the signal queue
  /// takes it within a moment): a request sent right after `kill -HUP` may still meet the old
  /// tokens. What says the new ones are in force is
  /// the log line, or `artwork_api_token_reloads_total{result="ok"}` going up.
  public func reloadTokens() {
    let outcome = app.authenticator.reload()
    if let outcome {
      app.metrics.recordTokenReload(accepted: (try? outcome.get()) != nil)
      app.metrics.seed(callers: app.authenticator.callerNames)
    }
    switch outcome {
    case nil:
      app.logger.info("SIGHUP: no ARTWORK_API_TOKENS_FILE to re-read")
    case .success(let count)?:
      app.logger.info(
        "API tokens reloaded",
        ["file": .string(app.authenticator.file ?? ""), "tokens": .int(count)])
    case .failure(let problems)?:
      app.logger.error(
        "API tokens not reloaded: the previous tokens stay in force",
        [
          "file": .string(app.authenticator.file ?? ""),
          "problems": .string(problems.list.joined(separator: "; ")),
        ])
    }
  }

  /// The port actually bound (useful with port 0).
  public var port: Int { server.port }

  /// Stops accepting, lets in-flight requests finish within the configured grace, then stops;
  /// image work still running for requests that were cut is given what is left of the grace
  /// (libvips work cannot be interrupted from outside, and the process must not exit under it).
  public func shutdown() async {
    let deadline = ContinuousClock.now + grace
    sweeper.stop()
    deletions.stop()
    heap.stop()
    await server.shutdown(gracePeriod: grace)
    let left = max(.zero, deadline - ContinuousClock.now)
    if !(await app.processor.workers.shutdown(within: left)) {
      app.logger.warn(
        "image work still running at the end of the shutdown grace",
        ["busy": .int(app.processor.workers.stats.busy)])
    }
    app.storage.release()
  }
}
