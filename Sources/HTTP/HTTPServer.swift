import CMicroHTTPD
import Synchronization

/// An HTTP/1.1 server over libmicrohttpd.
///
/// Requests are parsed and bodies collected on MHD's threads; handlers run as tasks while the
/// connection is suspended, so a slow handler never holds a server thread. The server listens
/// from `init` until `shutdown(gracePeriod:)` (or deinit, which stops at once).
public final class HTTPServer: Sendable {
  /// The lifecycle, behind a lock.
  private struct Lifecycle: Sendable {
    /// The running daemon; nil once stopped.
    var daemon: MHDDaemon?
    /// The one shutdown in progress or done; later callers await it.
    var shutdown: Task<Void, Never>?
  }

  /// The port actually bound (useful with port 0).
  public let port: Int
  private let core: ServerCore
  private let lifecycle: Mutex<Lifecycle>

  /// Binds and starts serving `router`.
  public init(configuration: HTTPServerConfiguration, router: Router) throws(HTTPServerError) {
    try Self.validate(configuration)
    let core = ServerCore(configuration: configuration, router: router)
    let cls = Unmanaged.passRetained(core)
    var error: Int32 = 0
    // NOTE: MHD's memory pool holds the request head and the read buffer; the server enforces
    // `maxHeaderBytes` itself (431 via the problem responder), so the pool is roomier and MHD's
    // own bare 431 only meets far larger heads.
    let memoryLimit = max(32 * 1024, configuration.maxHeaderBytes * 2 + 16 * 1024)
    let daemon = artwork_mhd_start(
      configuration.host, UInt16(configuration.port), MHDCallbacks.access,
      MHDCallbacks.completed, MHDCallbacks.uriLog, cls.toOpaque(), memoryLimit,
      UInt32(configuration.maxConnections), UInt32(configuration.idleTimeout),
      UInt32(configuration.threadCount), &error)
    guard let daemon else {
      cls.release()
      if error == Int32(ARTWORK_MHD_START_BAD_HOST.rawValue) {
        throw .invalidHost(configuration.host)
      }
      throw .startFailed(host: configuration.host, port: configuration.port)
    }
    self.core = core
    self.port = Int(artwork_mhd_bound_port(daemon))
    self.lifecycle = Mutex(Lifecycle(daemon: MHDDaemon(raw: daemon, core: cls)))
  }

  deinit {
    if let daemon = lifecycle.withLock({ $0.daemon.take() }) {
      Self.stop(daemon, core: core)
    }
  }

  /// Requests between their request line and the end of their exchange (for metrics/health).
  public var inFlightCount: Int { core.inFlightCount }

  /// Request contexts and stream readers still alive; 0 once every exchange is over and its
  /// handler task finished. For leak checks in tests.
  var liveRequestObjects: Int { core.live.count }

  /// Stops gracefully: stops accepting connections at once (new connections are refused), lets
  /// in-flight requests finish until `gracePeriod` has passed (their responses close their
  /// connections), answers 503 to any still waiting, then stops the daemon. Idempotent: every
  /// call returns once the server has stopped.
  public func shutdown(gracePeriod: Duration) async {
    let task = lifecycle.withLock { lifecycle -> Task<Void, Never> in
      if let task = lifecycle.shutdown { return task }
      // The drain task owns the daemon from here on, so deinit cannot stop it a second time.
      let daemon = lifecycle.daemon.take()
      let core = core
      let task = Task {
        guard let daemon else { return }
        await Self.drain(daemon, core: core, gracePeriod: gracePeriod)
      }
      lifecycle.shutdown = task
      return task
    }
    await task.value
  }

  /// Quiesces, waits for in-flight requests up to the grace period, then stops.
  private static func drain(_ daemon: MHDDaemon, core: ServerCore, gracePeriod: Duration) async {
    core.draining.store(true, ordering: .relaxed)
    artwork_mhd_quiesce(daemon.raw)
    let deadline = ContinuousClock.now + gracePeriod
    while core.inFlightCount > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
    core.abortAll()
    // Aborted requests answer 503 on their own MHD thread; give them a moment to go out.
    let flushDeadline = ContinuousClock.now + .milliseconds(500)
    while core.inFlightCount > 0, ContinuousClock.now < flushDeadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    stop(daemon, core: core)
  }

  /// Stops the daemon at once. Every suspended connection is resumed first, as MHD requires.
  private static func stop(_ daemon: MHDDaemon, core: ServerCore) {
    core.abortAll()
    MHD_stop_daemon(daemon.raw)
    daemon.core.release()
  }

  private static func validate(_ configuration: HTTPServerConfiguration) throws(HTTPServerError) {
    var problems: [String] = []
    if !(0...65535).contains(configuration.port) {
      problems.append("port must be 0...65535 (got \(configuration.port))")
    }
    if !(1...256).contains(configuration.threadCount) {
      problems.append("threadCount must be 1...256 (got \(configuration.threadCount))")
    }
    if configuration.maxHeaderBytes < 256 {
      problems.append("maxHeaderBytes must be at least 256 (got \(configuration.maxHeaderBytes))")
    }
    if configuration.defaultMaxBodyBytes < 0 {
      problems.append("defaultMaxBodyBytes must not be negative")
    }
    // NOTE: MHD splits the connection limit between its threads and refuses a share of 0.
    if configuration.maxConnections < configuration.threadCount {
      problems.append("maxConnections must be at least threadCount")
    }
    if configuration.idleTimeout < 0 { problems.append("idleTimeout must not be negative") }
    if !problems.isEmpty { throw .invalidConfiguration(problems.joined(separator: ", ")) }
  }
}

/// A running MHD daemon and the core reference it holds.
///
/// NOTE: `@unchecked Sendable` because the daemon pointer is used only under `HTTPServer`'s
/// lifecycle lock hand-off: quiesce and stop happen once, from the one shutdown path.
private struct MHDDaemon: @unchecked Sendable {
  let raw: OpaquePointer
  let core: Unmanaged<ServerCore>
}
