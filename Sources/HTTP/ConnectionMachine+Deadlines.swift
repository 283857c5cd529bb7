extension ConnectionMachine {
  /// Applies the time bound of the current state (`ConnectionState`), on every tick.
  func checkDeadlines() {
    let configuration = core.configuration
    switch state {
    case .awaitingRequest:
      // A new connection has the head deadline for its first request; a kept-alive one waits
      // `idleTimeout` for the next.
      var wait = served == 0 ? configuration.headTimeout : configuration.idleTimeout
      if served == 0, configuration.idleTimeout > .zero {
        wait = wait > .zero ? min(wait, configuration.idleTimeout) : configuration.idleTimeout
      }
      if wait > .zero, now - stateStarted >= wait { close() }
    case .readingHead:
      let timeout = configuration.headTimeout
      let start = served == 0 ? accepted : stateStarted
      if timeout > .zero, now - start >= timeout {
        timedOut("The request head did not arrive within \(Self.seconds(timeout)).")
      }
    case .readingBody:
      guard let started = exchange?.body?.started else { return }
      let rate = configuration.minBodyBytesPerSecond
      let elapsed = now - started
      if rate > 0, elapsed > grace,
        Double(parser.bodyBytes) < Double(rate) * Self.double(elapsed - grace)
      {
        timedOut("The request body arrived slower than \(rate) bytes per second.")
      } else if configuration.idleTimeout > .zero, now - lastProgress >= configuration.idleTimeout {
        timedOut(
          "No byte of the request body arrived for \(Self.seconds(configuration.idleTimeout)).")
      }
    case .handling:
      let timeout = configuration.handlerTimeout
      if timeout > .zero, now - stateStarted >= timeout {
        // The handler is cancelled, and its answer is dropped if it comes all the same
        // (`.answered` checks the state): the client hears now, and its connection closes.
        if let number = exchange?.number { act(.cancel(number: number)) }
        answerAndClose(
          problem(
            ServerAnswer(
              status: 503,
              detail: "The request was not answered within \(Self.seconds(timeout)); retry shortly."
            )))
      }
    case .writing:
      checkSending(configuration)
    case .draining:
      if case .draining(let deadline?, _) = phase {
        if now >= deadline { close() }
      } else {
        checkSending(configuration)
      }
    case .parked:
      if case .parked(_, let until, _) = phase, now >= until { unpark() }
    case .closed:
      break
    }
  }

  /// The bounds of an answer on its way: a client that takes none of it for `idleTimeout`, or
  /// takes it slower than `minSendBytesPerSecond` once `grace` has passed, is closed; a stream
  /// whose next chunk does not come within `handlerTimeout` is closed too (the client cannot take
  /// it for whole: its framing tells it so).
  private func checkSending(_ configuration: HTTPServerConfiguration) {
    if output.isEmpty {
      let timeout = configuration.handlerTimeout
      let fetching = exchange?.answer?.stream?.fetching == true
      if fetching, timeout > .zero, now - lastProgress >= timeout {
        close()
      }
      return
    }
    if configuration.idleTimeout > .zero, now - lastProgress >= configuration.idleTimeout {
      close()
      return
    }
    let rate = configuration.minSendBytesPerSecond
    if rate > 0, let blocked = sendBlocked, now - blocked.since > grace,
      Double(blocked.written) < Double(rate) * Self.double(now - blocked.since - grace)
    {
      close()
    }
  }

  /// How long a transfer may go before its rate is checked.
  private var grace: Duration {
    core.configuration.headTimeout > .zero ? core.configuration.headTimeout : .seconds(10)
  }

  /// Sends a parked refusal and drains (the answer goes with the `.parked` phase it lived in).
  private func unpark() {
    guard case .parked(let answer, _, _) = phase else { return }
    answerAndClose(answer)
  }

  /// A 408 for a client too slow to send its request; the connection lingers only briefly.
  private func timedOut(_ detail: String) {
    lingerBriefly()
    refuseAndClose(ServerAnswer(status: 408, detail: detail))
  }

  /// The shutdown grace ran out: a request still waiting for its handler (or still sending its
  /// body) is answered 503, anything else is closed.
  func abort() {
    switch state {
    case .handling, .readingBody:
      let answer = ServerAnswer(
        status: 503, detail: "The server is shutting down; retry on another instance shortly.")
      updateExchange(.streamEnded)
      answerAndClose(problem(answer))
    case .awaitingRequest, .readingHead, .writing:
      close()
    case .parked:
      unpark()
    case .draining, .closed:
      break
    }
  }

  static func seconds(_ duration: Duration) -> String {
    let value = double(duration)
    return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }
}
