extension ConnectionMachine {
  /// Queues the answer to the current request for writing. A body in memory is written from the
  /// response's own array (no copy); a stream is fetched chunk by chunk, one chunk at a time, as
  /// the client takes them.
  func respond(_ response: HTTPResponse, closing: Bool = false) {
    guard let exchange else { return }
    var response = response
    if !(200...999).contains(response.status) {
      response = problem(
        ServerAnswer(status: 500, detail: "The server produced an invalid answer; it was logged."))
    }
    let id = exchange.id ?? RequestID.generate()
    updateExchange(.identified(id))
    let crossOrigin = core.configuration.crossOrigin
    if crossOrigin.isOpen {
      crossOrigin.decorate(&response.headers, origin: exchange.said?.origin)
    }
    // Before the head parsed (a refusal of it), HTTP/1.1's defaults.
    let isHTTP10 = exchange.said?.isHTTP10 == true
    var close = closing || exchange.said?.keepAlive == false || shuttingDown
    let status = response.status
    let bodyless = exchange.said?.isHead == true || status == 204 || status == 304
    var framing = ResponseHead.Framing.length(0)
    var body: [UInt8] = []
    var shared: SharedBody?
    var stream: StreamState?
    switch response.body {
    case .empty:
      break
    case .bytes(let bytes):
      framing = .length(bytes.count)
      if !bodyless { body = bytes }
    case .shared(let file):
      framing = .length(file.count)
      if !bodyless { shared = file }
    case .stream(let length, let next):
      if let length {
        framing = .length(max(0, length))
        if !bodyless, length > 0 {
          stream = StreamState(next: next, remaining: length, chunked: false)
        }
      } else if isHTTP10 {
        framing = .untilClose
        close = true
        if !bodyless { stream = StreamState(next: next, remaining: nil, chunked: false) }
      } else {
        framing = .chunked
        if !bodyless { stream = StreamState(next: next, remaining: nil, chunked: true) }
      }
    }
    if status == 204 || status == 304 { framing = .none }
    let persistence: ResponseHead.Persistence =
      close ? .close : (isHTTP10 ? .keepAlive : .unstated)
    queueHead(
      status: status, headers: response.headers, framing: framing, requestID: id,
      persistence: persistence)
    queue(body)
    if let shared { queue(shared) }
    updateExchange(
      .answerQueued(
        status: status, bytes: body.count + (shared?.count ?? 0), stream: stream))
    // A client that shut its side after its request keeps that through the answer.
    let peerFinished = phase.peerFinished
    let next: ConnectionPhase =
      close
      ? .draining(deadline: nil, peerFinished: peerFinished)
      : .writing(peerFinished: peerFinished)
    guard enter(next) else { return }
    act(.write)
  }

  /// Answers and closes: the answer goes out, meanwhile and after it input is read and dropped
  /// (up to `maxDiscardBytes`, for `lingerTimeout`), then the sending side is shut so the client
  /// reads the answer and the end of the stream, and the connection closes when the client
  /// closes.
  func answerAndClose(_ response: HTTPResponse) {
    respond(response, closing: true)
  }

  /// Asks the stream for its next chunk, off the loop thread.
  func fetchChunk() {
    guard let next = exchange?.answer?.stream?.next, let number = exchange?.number else { return }
    updateExchange(.fetchStarted)
    act(.fetch(number: number, next))
  }

  /// A stream's chunk (or its end, or its failure) came back.
  func chunkArrived(_ number: UInt64, _ result: Result<[UInt8]?, any Error>) {
    guard let exchange, exchange.number == number, let stream = exchange.answer?.stream else {
      return
    }
    switch result {
    case .failure:
      close()
      return
    case .success(nil):
      if let remaining = stream.remaining, remaining > 0 {
        // Shorter than its declared length: the client must not take it for whole.
        close()
        return
      }
      if stream.chunked { queue(ResponseHead.lastChunk) }
      updateExchange(.streamEnded)
    case .success(let chunk?) where chunk.isEmpty:
      // Nothing to write (and in chunked coding an empty chunk would end the body): ask again.
      updateExchange(.streamAdvanced(sent: 0))
      fetchChunk()
      return
    case .success(let chunk?):
      if let remaining = stream.remaining, chunk.count > remaining {
        close()
        return
      }
      if stream.chunked {
        queue(ResponseHead.chunkPrefix(chunk.count))
        queue(chunk)
        queue(ResponseHead.chunkSuffix)
      } else {
        queue(chunk)
      }
      updateExchange(.streamAdvanced(sent: chunk.count))
    }
    act(.write)
  }
}
