import Glibc

extension Connection {
  /// Closes at once. A request still in its exchange is logged as not completed; a handler or
  /// stream still running finds no connection when it posts back.
  func close() {
    guard phase != .closed else { return }
    enter(.closed)
    Glibc.close(fd)
    core.limits.release(address)
    loop.remove(self)
    output.removeAll()
    pending = []
    if let exchange {
      self.exchange = nil
      release(exchange)
      if exchange.status != nil { core.log(record(exchange, completed: false)) }
    }
  }

  /// Applies the deadline of the current phase (checked by the loop every 100 ms).
  func checkDeadlines(now: ContinuousClock.Instant) {
    let configuration = core.configuration
    switch phase {
    case .waiting:
      // A new connection has the head deadline for its first request; a kept-alive one waits
      // `idleTimeout` for the next.
      var wait = served == 0 ? configuration.headTimeout : configuration.idleTimeout
      if served == 0, configuration.idleTimeout > .zero {
        wait = wait > .zero ? min(wait, configuration.idleTimeout) : configuration.idleTimeout
      }
      if wait > .zero, now - phaseStarted >= wait { close() }
    case .head:
      let timeout = configuration.headTimeout
      let start = served == 0 ? accepted : phaseStarted
      if timeout > .zero, now - start >= timeout {
        timedOut("The request head did not arrive within \(Self.seconds(timeout)).")
      }
    case .body:
      guard let started = exchange?.bodyStarted else { return }
      let rate = configuration.minBodyBytesPerSecond
      let grace = configuration.headTimeout > .zero ? configuration.headTimeout : .seconds(10)
      let elapsed = now - started
      if rate > 0, elapsed > grace,
        Double(parser.bodyBytes) < Double(rate) * Self.double(elapsed - grace)
      {
        timedOut("The request body arrived slower than \(rate) bytes per second.")
      } else if configuration.idleTimeout > .zero, now - lastProgress >= configuration.idleTimeout {
        timedOut(
          "No byte of the request body arrived for \(Self.seconds(configuration.idleTimeout)).")
      }
    case .writing:
      if !output.isEmpty, configuration.idleTimeout > .zero,
        now - lastProgress >= configuration.idleTimeout
      {
        close()
      }
    case .draining:
      if let drainDeadline, now >= drainDeadline { close() }
    case .parked:
      if let parked = parkedAnswer, now >= parked.until { unpark() }
    case .handling, .closed:
      break
    }
  }

  /// Sends a parked refusal and drains.
  private func unpark() {
    guard let parked = parkedAnswer else { return }
    parkedAnswer = nil
    answerAndClose(parked.response)
    drive()
  }

  /// A 408 for a client too slow to send its request; the connection lingers only briefly.
  private func timedOut(_ detail: String) {
    refuseAndClose(ServerAnswer(status: 408, detail: detail))
    drainDeadline = min(drainDeadline ?? loop.now, loop.now + .seconds(1))
  }

  /// Shutdown began: a connection waiting for a request closes now; the others close after
  /// their answer.
  func closeIfIdle() {
    if phase == .waiting { close() }
  }

  /// The shutdown grace ran out: a request still waiting for its handler (or still sending its
  /// body) is answered 503, anything else is closed.
  func abort() {
    switch phase {
    case .handling, .body:
      let answer = ServerAnswer(
        status: 503, detail: "The server is shutting down; retry on another instance shortly.")
      exchange?.stream = nil
      answerAndClose(problem(answer))
    case .waiting, .head, .writing:
      close()
    case .parked:
      unpark()
    case .draining, .closed:
      break
    }
  }

  private static func seconds(_ duration: Duration) -> String {
    let value = double(duration)
    return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }

  private static func double(_ duration: Duration) -> Double {
    let components = duration.components
    return Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}
