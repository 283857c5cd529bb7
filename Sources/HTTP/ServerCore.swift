import Synchronization

/// What every event loop of one server shares: the configuration, the routes, the limits and
/// the counters. Immutable or atomic, so any thread may use it.
final class ServerCore: Sendable {
  let configuration: HTTPServerConfiguration
  let router: Router
  let limits: ConnectionLimits
  let bodyBudget: BodyBudget
  /// Requests whose head was accepted and whose exchange has not ended.
  let inFlight = Atomic<Int>(0)
  /// Connections and handler or stream tasks alive (for leak checks).
  let live = LiveCount()
  /// Moves between connection states that the table does not allow (each closed its
  /// connection): a bug when it is not zero.
  let illegalTransitions = Atomic<Int>(0)
  /// The connections that have not sent their first whole head, oldest first: at the
  /// connection limit the oldest gives its slot to a new connection.
  let heads = HeadRegistry()
  /// Connections shed that way.
  let connectionsShed = Atomic<Int>(0)
  /// Kept-alive connections closed idle at the connection limit to admit new ones.
  let idleConnectionsClosed = Atomic<Int>(0)
  /// The server's loops, set once they exist and emptied when they stop (the loops hold this
  /// object, so the list must not outlive them).
  let loops = Mutex<[EventLoop]>([])

  init(configuration: HTTPServerConfiguration, router: Router) {
    self.configuration = configuration
    self.router = router
    limits = ConnectionLimits(
      total: configuration.maxConnections, perAddress: configuration.maxConnectionsPerAddress,
      settings: configuration.connectionSettings)
    bodyBudget = BodyBudget(limit: configuration.bodyMemoryLimit)
  }

  /// The configured rendering of an answer the server gives by itself. A 503 it gives always
  /// carries `Retry-After`.
  func problem(_ answer: ServerAnswer, requestID: RequestID) -> HTTPResponse {
    var response = configuration.problemResponder(
      HTTPProblem(status: answer.status, detail: answer.detail, requestID: requestID.text))
    if answer.status == 503, !response.headers.contains("Retry-After") {
      response.headers.set("Retry-After", "1")
    }
    return response
  }

  /// The loop serving the fewest connections (nil before the loops are known or after they
  /// stopped).
  func leastLoadedLoop() -> EventLoop? {
    loops.withLock { loops in
      loops.min { $0.load.load(ordering: .relaxed) < $1.load.load(ordering: .relaxed) }
    }
  }

  /// The loop that had the most idle kept-alive connections at its last tick, with one of them
  /// promised to a new connection (its count lowered by one until the next tick recounts):
  /// nil when no loop had one.
  func loopWithIdleConnection() -> EventLoop? {
    loops.withLock { loops in
      guard
        let loop = loops.max(by: {
          $0.idleKeptAlive.load(ordering: .relaxed) < $1.idleKeptAlive.load(ordering: .relaxed)
        }), loop.idleKeptAlive.load(ordering: .relaxed) > 0
      else { return nil }
      loop.idleKeptAlive.subtract(1, ordering: .relaxed)
      return loop
    }
  }

  /// The idle kept-alive connections of every loop, as counted at their last ticks.
  var idleKeptAliveCount: Int {
    loops.withLock { $0.reduce(0) { $0 + $1.idleKeptAlive.load(ordering: .relaxed) } }
  }

  /// Writes an access-log record, when a log is configured.
  func log(_ record: HTTPAccessRecord) {
    configuration.accessLog?(record)
  }
}
