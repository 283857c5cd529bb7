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
  /// Connections without a first head from one network that make it the first to give way at
  /// the limit: a sixty-fourth of the limit, and at least 8.
  let manyWaiting: Int
  /// Kept-alive connections closed idle at the connection limit to admit new ones.
  let idleConnectionsClosed = Atomic<Int>(0)
  /// Requests the server refused by itself for load, by reason.
  let overloadRefusals = OverloadRefusals()
  /// The server's loops, set once they exist and emptied when they stop (the loops hold this
  /// object, so the list must not outlive them).
  let loops = Mutex<[EventLoop]>([])

  init(configuration: HTTPServerConfiguration, router: Router) {
    self.configuration = configuration
    self.router = router
    limits = ConnectionLimits(
      total: configuration.maxConnections, perAddress: configuration.maxConnectionsPerAddress,
      settings: configuration.connectionSettings)
    bodyBudget = BodyBudget(
      limit: configuration.bodyMemoryLimit,
      maxArrivingPerShare: configuration.maxBodiesArrivingPerShare)
    manyWaiting = max(8, configuration.maxConnections / 64)
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

  /// At the connection limit, the connection that gives its slot to a new one (nil: none
  /// does, and the new one is refused). When one client network holds many connections that
  /// have not sent a head (`manyWaiting`: a slow-head or silent-socket attack), its oldest such
  /// connection gives way first, whoever the new one is. Otherwise the one that has gone
  /// longest without a request gives way: the oldest connection still waiting for its first
  /// head, or the kept-alive connection idle longest (`mayReclaim`), whichever has waited since
  /// earlier. After a push, phones that have their image and idle give way before phones that
  /// just connected, whose requests are on their way; a slow head that has waited longer than
  /// any idle connection goes first.
  ///
  /// Idle connections are known as each loop counted them at its last tick (every 100 ms).
  func makeRoom(mayReclaim: Bool) -> ConnectionLimits.Room? {
    if let head = heads.shedHeaviest(holdingAtLeast: manyWaiting) { return .shed(head) }
    let idle = mayReclaim ? loopWithOldestIdleConnection() : nil
    if let idle, heads.oldestAccepted.map({ idle.since <= $0 }) ?? true {
      return promiseIdleConnection(of: idle.loop)
    }
    if let head = heads.shedOldest() { return .shed(head) }
    return idle.map { promiseIdleConnection(of: $0.loop) }
  }

  /// The loop whose longest-idle kept-alive connection has idled since earliest, at the loops'
  /// last ticks (nil when none had one).
  private func loopWithOldestIdleConnection() -> (loop: EventLoop, since: Moment)? {
    loops.withLock { loops in
      var found: (loop: EventLoop, since: Moment)?
      for loop in loops where loop.idleKeptAlive.load(ordering: .relaxed) > 0 {
        let since = Moment(nanoseconds: loop.oldestIdleSince.load(ordering: .relaxed))
        if let best = found, best.since <= since { continue }
        found = (loop, since)
      }
      return found
    }
  }

  /// One of `loop`'s idle connections promised to a new connection: its count is lowered by
  /// one until the loop's next tick counts again.
  private func promiseIdleConnection(of loop: EventLoop) -> ConnectionLimits.Room {
    loop.idleKeptAlive.subtract(1, ordering: .relaxed)
    return .reclaim(loop)
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
