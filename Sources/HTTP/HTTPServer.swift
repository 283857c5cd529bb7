internal import CHTTPParser
import Glibc
import Synchronization

/// An HTTP/1.1 server: `threadCount` epoll loops over one listening socket, http-parser for
/// framing, handlers on the Swift concurrency pool.
///
/// Every answer the server gives by itself is rendered by the configured problem responder;
/// refused requests are answered without keeping their body and the answer is delivered before
/// the connection closes. The server listens from `init` until `shutdown(gracePeriod:)` (or
/// deinit, which stops at once).
public final class HTTPServer: Sendable {
  /// The lifecycle, behind a lock.
  private struct Lifecycle: Sendable {
    /// Whether the loops were stopped (by a shutdown or by deinit).
    var stopped = false
    /// The one shutdown in progress or done; later callers await it.
    var shutdown: Task<Void, Never>?
  }

  /// The port actually bound (useful with port 0).
  public let port: Int
  let core: ServerCore
  private let loops: [EventLoop]
  private let listener: Int32
  private let lifecycle = Mutex(Lifecycle())

  /// Binds `configuration.host` and `configuration.port` and starts serving `router`.
  public convenience init(configuration: HTTPServerConfiguration, router: Router)
    throws(HTTPServerError)
  {
    try Self.validate(configuration)
    let listener = try HTTPListener(host: configuration.host, port: configuration.port)
    try self.init(configuration: configuration, listener: listener, router: router)
  }

  /// Starts serving `router` on a socket bound already (`configuration.host` and `.port` are
  /// not used). The server owns the socket from here on.
  public init(configuration: HTTPServerConfiguration, listener: HTTPListener, router: Router)
    throws(HTTPServerError)
  {
    try Self.validate(configuration)
    // NOTE: `sendfile` takes no MSG_NOSIGNAL: a peer that resets while a shared body is on its
    // way raises SIGPIPE, whose default action ends the process without a word (exit 141).
    // Every write reports EPIPE anyway; the signal is never wanted in a server.
    signal(SIGPIPE, SIG_IGN)
    guard let fd = listener.take() else {
      throw .invalidConfiguration("the listener serves another server already")
    }
    let core = ServerCore(configuration: configuration, router: router)
    var loops: [EventLoop] = []
    do {
      for _ in 0..<configuration.threadCount {
        loops.append(try EventLoop(core: core, listener: fd))
      }
    } catch {
      for loop in loops { loop.stop() }
      Glibc.close(fd)
      throw error
    }
    core.loops.withLock { $0 = loops }
    for (index, loop) in loops.enumerated() { loop.start(name: "artwork-http-\(index)") }
    self.core = core
    self.loops = loops
    self.listener = fd
    self.port = listener.port
  }

  deinit {
    let mustStop = lifecycle.withLock { lifecycle in
      defer { lifecycle.stopped = true }
      return !lifecycle.stopped
    }
    guard mustStop else { return }
    // `abortAll` tells every connection `.graceOver`: from then on every answer closes.
    for loop in loops {
      loop.post { loop in
        loop.stopListening()
        loop.abortAll()
        loop.stop()
      }
    }
    for loop in loops { loop.join() }
    core.loops.withLock { $0 = [] }
    Glibc.close(listener)
  }

  /// Requests whose head was accepted and whose answer is not all written (for metrics/health).
  public var inFlightCount: Int { core.inFlight.load(ordering: .relaxed) }

  /// Moves between connection states that the state table does not allow, since start: each is
  /// a bug, which closed its connection (for metrics; zero in a correct server).
  public var illegalTransitionCount: Int { core.illegalTransitions.load(ordering: .relaxed) }

  /// Connections shed at the connection limit, since start: each had not sent its first whole
  /// head, was the oldest such, and gave its slot to a new connection (for metrics).
  public var shedConnectionCount: Int { core.connectionsShed.load(ordering: .relaxed) }

  /// Kept-alive connections closed idle at the connection limit, since start: each had idled
  /// longest on its loop and gave its slot to a new connection (for metrics).
  public var idleConnectionsClosedCount: Int {
    core.idleConnectionsClosed.load(ordering: .relaxed)
  }

  /// Requests refused 503 by the server itself for load since start, by reason (for metrics):
  /// their caller's bodies arriving, the body memory, or a crowded connection table.
  public var overloadRefusalCounts: OverloadRefusals.Counts { core.overloadRefusals.counts }

  /// Connections admitted and still open (for tests that must know a connection is counted).
  var openConnectionCount: Int { core.limits.open }

  /// Connections and handler or stream tasks still alive; 0 once every exchange is over and its
  /// tasks finished. For leak checks in tests.
  var liveRequestObjects: Int { core.live.count }

  /// Stops gracefully: stops accepting connections at once (new connections are refused) and
  /// closes idle ones, lets in-flight requests finish until `gracePeriod` has passed (their
  /// answers close their connections), answers 503 to any still waiting, then stops. Idempotent:
  /// every call returns once the server has stopped.
  public func shutdown(gracePeriod: Duration) async {
    let task = lifecycle.withLock { lifecycle -> Task<Void, Never> in
      if let task = lifecycle.shutdown { return task }
      let task = Task { await self.drain(gracePeriod: gracePeriod) }
      lifecycle.shutdown = task
      return task
    }
    await task.value
  }

  private func drain(gracePeriod: Duration) async {
    guard !lifecycle.withLock({ $0.stopped }) else { return }
    for loop in loops { await loop.perform { $0.stopListening() } }
    // Every connection hears `.shutdownBegan` (after which its answers close it) once no loop
    // accepts any more, so none is handed over after it, and before a connection is refused.
    for loop in loops { await loop.perform { $0.closeIdle() } }
    Glibc.close(listener)
    let deadline = ContinuousClock.now + gracePeriod
    while core.inFlight.load(ordering: .relaxed) > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
    for loop in loops { await loop.perform { $0.abortAll() } }
    // The 503s go out on their loops; give the clients a moment to read them.
    let flushDeadline = ContinuousClock.now + .milliseconds(500)
    while core.limits.open > 0, ContinuousClock.now < flushDeadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    lifecycle.withLock { $0.stopped = true }
    for loop in loops { loop.post { $0.stop() } }
    for loop in loops { loop.join() }
    core.loops.withLock { $0 = [] }
  }

  private static func validate(_ configuration: HTTPServerConfiguration) throws(HTTPServerError) {
    var problems: [String] = []
    if !(0...65535).contains(configuration.port) {
      problems.append("port must be 0...65535 (got \(configuration.port))")
    }
    if !(1...256).contains(configuration.threadCount) {
      problems.append("threadCount must be 1...256 (got \(configuration.threadCount))")
    }
    if !(256...(64 * 1024)).contains(configuration.maxHeaderBytes) {
      problems.append(
        "maxHeaderBytes must be 256...65536 (got \(configuration.maxHeaderBytes))")
    }
    if configuration.defaultMaxBodyBytes < 0 {
      problems.append("defaultMaxBodyBytes must not be negative")
    }
    if configuration.maxConnections < 1 { problems.append("maxConnections must be at least 1") }
    if configuration.maxConnectionsPerAddress < 1 {
      problems.append("maxConnectionsPerAddress must be at least 1")
    }
    for (name, value) in [
      ("idleTimeout", configuration.idleTimeout), ("headTimeout", configuration.headTimeout),
      ("lingerTimeout", configuration.lingerTimeout),
      ("handlerTimeout", configuration.handlerTimeout),
    ] where value < .zero {
      problems.append("\(name) must not be negative")
    }
    if configuration.minBodyBytesPerSecond < 0 {
      problems.append("minBodyBytesPerSecond must not be negative")
    }
    if configuration.minSendBytesPerSecond < 0 {
      problems.append("minSendBytesPerSecond must not be negative")
    }
    if configuration.maxDiscardBytes < 0 { problems.append("maxDiscardBytes must not be negative") }
    if configuration.bodyMemoryLimit < 0 { problems.append("bodyMemoryLimit must not be negative") }
    if !problems.isEmpty { throw .invalidConfiguration(problems.joined(separator: ", ")) }
  }
}
