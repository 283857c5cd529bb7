import Synchronization
import Testing

@testable import HTTP

/// The connection state machine without a socket: tables of event sequences, each with the
/// states the machine went through, the answers it wrote, and whether it closed with nothing
/// held (the way SwiftNIO tests its HTTP server pipeline handler on an embedded channel).
@Suite struct ConnectionMachineTests {
  /// One thing that happens to a connection.
  enum Step: Sendable, CustomStringConvertible {
    case send(String)
    /// The client shuts its sending side.
    case finish
    case reset
    case wait(Duration)
    /// The handlers started so far answer.
    case answer
    /// The socket takes this many bytes per write from now on (nil: any number), and what
    /// waits is written.
    case room(Int?)
    case shutdown
    case graceOver

    var description: String {
      switch self {
      case .send(let text): "send \(text.debugDescription.prefix(40))"
      case .finish: "finish"
      case .reset: "reset"
      case .wait(let duration): "wait \(duration)"
      case .answer: "answer"
      case .room(let room): "room \(room.map(String.init) ?? "any")"
      case .shutdown: "shutdown"
      case .graceOver: "grace over"
      }
    }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let steps: [Step]
    /// The states after each step, repeats folded, from `awaitingRequest`.
    let states: [ConnectionState]
    let statuses: [Int]
    /// Whether the peer is a proxy that speaks for its clients.
    var proxy = false
    var testDescription: String { name }
  }

  static let get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"

  static let cases: [Case] = [
    Case(
      name: "a GET is answered and the connection kept",
      steps: [.send(get), .answer],
      states: [.awaitingRequest, .handling, .awaitingRequest], statuses: [200]),
    Case(
      name: "pipelined requests are answered in order, one at a time",
      steps: [.send(get + get), .answer, .answer],
      states: [.awaitingRequest, .handling, .awaitingRequest], statuses: [200, 200]),
    Case(
      name: "Connection: close drains, then closes when the client does",
      steps: [.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), .answer, .finish],
      states: [.awaitingRequest, .handling, .draining, .closed], statuses: [200]),
    Case(
      name: "a 404 without a body keeps the connection",
      steps: [.send("GET /missing HTTP/1.1\r\nHost: x\r\n\r\n"), .send(get), .answer],
      states: [.awaitingRequest, .handling, .awaitingRequest], statuses: [404, 200]),
    Case(
      name: "a refused head with a body drains it, then closes",
      steps: [
        .send("POST /missing HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n"),
        .send("0123456789"), .finish,
      ],
      states: [.awaitingRequest, .draining, .closed], statuses: [404]),
    Case(
      name: "a Content-Length beyond 2^64 is a 413 from the head",
      steps: [
        .send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n")
      ],
      states: [.awaitingRequest, .draining], statuses: [413]),
    Case(
      name: "a Content-Length past the route's limit is a 413 from the head",
      steps: [.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n")],
      states: [.awaitingRequest, .draining], statuses: [413]),
    Case(
      name: "a chunked body past the limit is a 413 as it grows",
      steps: [
        .send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"),
        .send("400\r\n" + String(repeating: "a", count: 1024) + "\r\n"), .send("1\r\na\r\n"),
      ],
      states: [.awaitingRequest, .readingBody, .draining], statuses: [413]),
    Case(
      name: "to a proxy, a refused head's body is dropped before the answer; the connection stays",
      steps: [
        .send("POST /missing HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01234"),
        .send("56789"), .send(get), .answer,
      ],
      states: [.awaitingRequest, .readingBody, .awaitingRequest, .handling, .awaitingRequest],
      statuses: [404, 200], proxy: true),
    Case(
      name: "to a proxy, a chunked body past the limit is dropped, then answered 413",
      steps: [
        .send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"),
        .send("400\r\n" + String(repeating: "a", count: 1024) + "\r\n"), .send("1\r\na\r\n"),
        .send("0\r\n\r\n"),
      ],
      states: [.awaitingRequest, .readingBody, .awaitingRequest], statuses: [413], proxy: true),
    Case(
      name: "to a proxy, a refused body that stops coming is a 408",
      steps: [
        .send("POST /missing HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01234"),
        .wait(.seconds(31)),
      ],
      states: [.awaitingRequest, .readingBody, .draining, .closed], statuses: [408], proxy: true),
    Case(
      name: "a FIN in the middle of a head closes at once",
      steps: [.send("GET / HT"), .finish],
      states: [.awaitingRequest, .readingHead, .closed], statuses: []),
    Case(
      name: "a FIN with the last body bytes closes at once",
      steps: [.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01234"), .finish],
      states: [.awaitingRequest, .readingBody, .closed], statuses: []),
    Case(
      name: "a reset while the handler runs closes at once; its late answer is dropped",
      steps: [
        .send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"), .reset, .answer,
      ],
      states: [.awaitingRequest, .handling, .closed], statuses: []),
    Case(
      name: "a FIN after a whole request still gets the answer, then the close",
      steps: [.send(get), .finish, .answer],
      states: [.awaitingRequest, .handling, .closed], statuses: [200]),
    Case(
      name: "a head that does not arrive in time is a 408, then a close after 1 s",
      steps: [.send("GET / HT"), .wait(.seconds(10)), .wait(.seconds(1))],
      states: [.awaitingRequest, .readingHead, .draining, .closed], statuses: [408]),
    Case(
      name: "a body slower than the minimum rate is a 408",
      steps: [
        .send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123"),
        .wait(.seconds(11)),
      ],
      states: [.awaitingRequest, .readingBody, .draining], statuses: [408]),
    Case(
      name: "a kept-alive connection closes when idle",
      steps: [.send(get), .answer, .wait(.seconds(29)), .wait(.seconds(1))],
      states: [.awaitingRequest, .handling, .awaitingRequest, .closed], statuses: [200]),
    Case(
      name: "a new connection without a byte closes after the head timeout",
      steps: [.wait(.seconds(10))],
      states: [.awaitingRequest, .closed], statuses: []),
    Case(
      name: "a handler that does not answer in time is a 503; its late answer is dropped",
      steps: [.send(get), .wait(.seconds(60)), .answer],
      states: [.awaitingRequest, .handling, .draining], statuses: [503]),
    Case(
      name: "a client that takes none of its answer is closed when idle",
      steps: [
        .room(0), .send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n"), .answer, .wait(.seconds(30)),
      ],
      states: [.awaitingRequest, .handling, .writing, .closed], statuses: []),
    Case(
      name: "a client that takes its answer slower than the minimum rate is closed",
      steps: [
        .room(1000), .send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n"), .answer, .wait(.seconds(12)),
        .room(1000),
        .wait(.seconds(1)),
      ],
      states: [.awaitingRequest, .handling, .writing, .closed], statuses: [200]),
    Case(
      name: "an answer waiting for a slow client goes out when it reads",
      steps: [.room(0), .send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n"), .answer, .room(nil)],
      states: [.awaitingRequest, .handling, .writing, .awaitingRequest], statuses: [200]),
    Case(
      name: "an overload refusal with a body is parked for its Retry-After",
      steps: [
        .send("POST /busy HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n"), .wait(.seconds(1)),
        .send("hello"),
      ],
      states: [.awaitingRequest, .parked, .draining], statuses: [503]),
    Case(
      name: "Expect: 100-continue is answered once the head is accepted",
      steps: [
        .send(
          "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"),
        .send("hello"), .answer,
      ],
      states: [.awaitingRequest, .readingBody, .handling, .awaitingRequest], statuses: [100, 200]),
    Case(
      name: "a framing breach is a 400 and nothing after it is read",
      steps: [
        .send("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n" + get)
      ],
      states: [.awaitingRequest, .draining], statuses: [400]),
    Case(
      name: "shutdown closes a connection waiting for a request",
      steps: [.send(get), .answer, .shutdown],
      states: [.awaitingRequest, .handling, .awaitingRequest, .closed], statuses: [200]),
    Case(
      name: "an answer after shutdown began closes its connection",
      steps: [.send(get), .shutdown, .answer, .finish],
      states: [.awaitingRequest, .handling, .draining, .closed], statuses: [200]),
    Case(
      name: "a request still waiting for its handler when the grace runs out is a 503",
      steps: [.send(get), .shutdown, .graceOver, .finish],
      states: [.awaitingRequest, .handling, .draining, .closed], statuses: [503]),
    Case(
      name: "an answer under way when the client shuts its side is written, then closed",
      steps: [
        .room(0), .send("GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), .answer,
        .finish,
        .room(nil),
      ],
      states: [.awaitingRequest, .handling, .draining, .closed], statuses: [200]),
    Case(
      name: "a streamed answer is chunked, chunk by chunk",
      steps: [.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n"), .answer],
      states: [.awaitingRequest, .handling, .writing, .awaitingRequest], statuses: [200]),
  ]

  static func router() -> Router {
    var router = Router()
    router.add(.get, "/") { _ in HTTPResponse(status: 200, body: .bytes(Array("root".utf8))) }
    router.add(.post, "/echo", maxBodyBytes: 1024) { request in
      HTTPResponse(status: 200, body: .bytes(Array("\(request.body.count)".utf8)))
    }
    router.add(.get, "/big") { _ in
      HTTPResponse(status: 200, body: .bytes([UInt8](repeating: 66, count: 1 << 20)))
    }
    router.add(.get, "/stream") { _ in
      let chunks = Chunks(["a", "bc", ""])
      return HTTPResponse(status: 200, body: .stream(length: nil, next: { chunks.next() }))
    }
    let overloaded: Router.Preflight = { _ in
      HTTPResponse(status: 503, headers: ["Retry-After": "1"])
    }
    router.add(.post, "/busy", preflight: overloaded) { _ in HTTPResponse(status: 200) }
    return router
  }

  @Test(arguments: cases)
  func eachSequenceMovesAsTheTableSays(_ test: Case) async {
    var configuration = HTTPServerConfiguration()
    if test.proxy { configuration.clientAddress = { peer, _ in peer } }
    let connection = EmbeddedConnection(router: Self.router(), configuration: configuration)
    for step in test.steps {
      switch step {
      case .send(let text): connection.send(text)
      case .finish: connection.finish()
      case .reset: connection.reset()
      case .wait(let duration): connection.advance(by: duration)
      case .answer: await connection.runHandlers()
      case .room(let room):
        connection.room = room
        connection.flush()
      case .shutdown: connection.shutdown(graceOver: false)
      case .graceOver: connection.shutdown(graceOver: true)
      }
      #expect(connection.violations() == [], "after \(step)")
    }
    #expect(connection.trace == test.states)
    #expect(connection.statuses == test.statuses)
    if connection.closed { #expect(connection.isOverAndReleased) }
  }

  @Test func aStreamIsWrittenAsChunks() async {
    let connection = EmbeddedConnection(router: Self.router())
    connection.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
    await connection.runHandlers()
    let text = String(decoding: connection.written, as: UTF8.self)
    #expect(text.hasSuffix("\r\n\r\n1\r\na\r\n2\r\nbc\r\n0\r\n\r\n"), "\(text)")
  }

  @Test func aMoveTheTableDoesNotAllowIsCountedAndCloses() {
    let connection = EmbeddedConnection(router: Self.router())
    #expect(!connection.machine.enter(.handling(peerFinished: false)))
    #expect(connection.core.illegalTransitions.load(ordering: .relaxed) == 1)
    #expect(connection.machine.state == .closed)
    #expect(connection.machine.takeAction().map { "\($0)" } == "close")
  }

  /// Input that leaves a new connection in each state but `closed`, with its actions taken.
  static let reaching: [(ConnectionState, [Step])] = [
    (.awaitingRequest, []),
    (.readingHead, [.send("GET / HT")]),
    (.readingBody, [.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")]),
    (.handling, [.send(get)]),
    (.writing, [.room(0), .send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n"), .answer]),
    (.parked, [.send("POST /busy HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")]),
    (.draining, [.send("POST /missing HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n")]),
  ]

  static func drive(_ connection: EmbeddedConnection, _ steps: [Step]) async {
    for step in steps {
      switch step {
      case .send(let text): connection.send(text)
      case .finish: connection.finish()
      case .reset: connection.reset()
      case .wait(let duration): connection.advance(by: duration)
      case .answer: await connection.runHandlers()
      case .room(let room):
        connection.room = room
        connection.flush()
      case .shutdown: connection.shutdown(graceOver: false)
      case .graceOver: connection.shutdown(graceOver: true)
      }
    }
  }

  /// A phase of kind `kind`, with made-up data where its case carries some.
  static func phase(_ kind: ConnectionState) -> ConnectionPhase {
    switch kind {
    case .awaitingRequest: .awaitingRequest
    case .readingHead: .readingHead
    case .readingBody: .readingBody
    case .handling: .handling(peerFinished: false)
    case .writing: .writing(peerFinished: false)
    case .parked: .parked(answer: HTTPResponse(status: 503), until: .now, peerFinished: false)
    case .draining: .draining(deadline: nil, peerFinished: false)
    case .closed: .closed
    }
  }

  /// From every state, every move the table refuses answers false, is counted once, closes, and
  /// leaves exactly one action: the close, with nothing after it.
  @Test func aRefusedMoveFromAnyStateLeavesOneCloseAndNothingAfter() async {
    var tried = 0
    for (state, steps) in Self.reaching {
      for next in ConnectionState.allCases where !state.mayEnter(next) {
        let connection = EmbeddedConnection(router: Self.router())
        await Self.drive(connection, steps)
        #expect(connection.machine.state == state, "\(steps) reaches \(state)")
        #expect(!connection.machine.enter(Self.phase(next)), "\(state) → \(next)")
        #expect(connection.core.illegalTransitions.load(ordering: .relaxed) == 1)
        #expect(connection.machine.state == .closed)
        var actions: [String] = []
        while let action = connection.machine.takeAction() { actions.append("\(action)") }
        #expect(actions == ["close"], "\(state) → \(next)")
        // An action decided after the close (a write, a run) is dropped, not queued.
        connection.machine.act(.write)
        #expect(connection.machine.takeAction() == nil, "\(state) → \(next)")
        tried += 1
      }
    }
    #expect(tried > 20)
  }

  /// The handler deadline cancels the handler of the exchange it answered for, and only that
  /// one: a handler that answered in time is never cancelled, and the cancelled one runs in a
  /// cancelled task.
  @Test func aHandlerPastItsDeadlineIsCancelled() async {
    let sawCancellation = Atomic<Int>(0)
    var router = Router()
    router.add(.get, "/") { _ in
      if Task.isCancelled { sawCancellation.add(1, ordering: .relaxed) }
      return HTTPResponse(status: 200)
    }
    let connection = EmbeddedConnection(router: router)
    connection.send(Self.get)
    await connection.runHandlers()
    connection.advance(by: .seconds(1))
    #expect(connection.cancelledHandlers == [])
    connection.send(Self.get)
    connection.advance(by: .seconds(59))
    #expect(connection.cancelledHandlers == [])
    connection.advance(by: .seconds(1))
    #expect(connection.cancelledHandlers == [2])
    #expect(connection.statuses == [200, 503])
    await connection.runHandlers()
    #expect(sawCancellation.load(ordering: .relaxed) == 1)
    #expect(connection.statuses == [200, 503])
    #expect(connection.violations() == [])
  }

  /// A parked answer exists only while the machine is `.parked`: not before, not after (the
  /// `.parked` case holds it).
  @Test func aParkedAnswerLivesOnlyInParked() async {
    let connection = EmbeddedConnection(router: Self.router())
    #expect(connection.machine.parkedAnswer == nil)
    connection.send("POST /busy HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")
    #expect(connection.machine.state == .parked)
    #expect(connection.machine.parkedAnswer?.status == 503)
    connection.advance(by: .seconds(1))
    #expect(connection.machine.state == .draining)
    #expect(connection.machine.parkedAnswer == nil)
    #expect(connection.statuses == [503])
    // Closing while parked drops it too.
    let reset = EmbeddedConnection(router: Self.router())
    reset.send("POST /busy HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")
    reset.reset()
    #expect(reset.machine.state == .closed)
    #expect(reset.machine.parkedAnswer == nil)
    #expect(reset.violations() == [])
  }

  /// A draining connection has a deadline once its last answer is out and its sending side
  /// shut, not before: the client gets `lingerTimeout` from there to close.
  @Test func aDrainDeadlineStartsWithTheHalfClose() {
    let connection = EmbeddedConnection(router: Self.router())
    connection.room = 0
    connection.send("POST /missing HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n")
    guard case .draining(nil, false) = connection.machine.phase else {
      Issue.record("\(connection.machine.phase)")
      return
    }
    #expect(!connection.halfClosed)
    connection.room = nil
    connection.flush()
    guard case .draining(let deadline?, false) = connection.machine.phase else {
      Issue.record("\(connection.machine.phase)")
      return
    }
    #expect(deadline == connection.now + connection.core.configuration.lingerTimeout)
    #expect(connection.halfClosed)
    #expect(connection.violations() == [])
  }

  /// The socket's room writes nothing by itself: `.writable` asks for a write only when the
  /// machine queued something, and the queue changes only through the machine.
  @Test(arguments: [(0, true), (nil, false)] as [(Int?, Bool)])
  func roomWritesOnlyWhatTheMachineQueued(_ room: Int?, _ queued: Bool) async {
    let connection = EmbeddedConnection(router: Self.router())
    connection.room = room
    connection.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
    await connection.runHandlers()
    #expect(connection.machine.output.isEmpty != queued)
    connection.machine.handle(.writable, at: connection.now)
    let action = connection.machine.takeAction().map { "\($0)" }
    #expect(action == (queued ? "write" : nil))
    while connection.machine.takeAction() != nil {}
  }

  @Test func everyStateIsReachableAndEveryOneButClosedMayClose() {
    var reached: Set<ConnectionState> = [.awaitingRequest]
    var frontier: [ConnectionState] = [.awaitingRequest]
    while let state = frontier.popLast() {
      for next in state.successors where reached.insert(next).inserted { frontier.append(next) }
    }
    #expect(reached == Set(ConnectionState.allCases))
    for state in ConnectionState.allCases {
      #expect(Self.phase(state).kind == state)
      #expect(state.mayEnter(.closed) == (state != .closed), "\(state)")
      for next in ConnectionState.allCases {
        #expect(state.mayEnter(next) == state.successors.contains(next), "\(state) → \(next)")
      }
    }
  }

  /// A method the parser does not know is a 501 naming it (or its start), however its bytes
  /// arrive (it was a 400 when the method's first bytes came in a read of their own).
  @Test func anUnknownMethodIsNamedWhateverTheSplit() {
    let request = Array("BREW / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    for size in [1, 2, 3, request.count] {
      let connection = EmbeddedConnection(router: Self.router())
      for start in stride(from: 0, to: request.count, by: size) {
        connection.send(Array(request[start..<min(request.count, start + size)]))
      }
      #expect(connection.statuses == [501], "\(size) bytes at a time")
      #expect(String(decoding: connection.written, as: UTF8.self).contains("BR"))
    }
  }

  /// Every split of a pipelined pair of requests is answered the same.
  @Test func everySplitOfTheInputIsAnsweredTheSame() async {
    let input = Array(
      ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello" + Self.get).utf8)
    for cut in 1..<input.count {
      let connection = EmbeddedConnection(router: Self.router())
      connection.send(Array(input[..<cut]))
      connection.send(Array(input[cut...]))
      await connection.runHandlers()
      #expect(connection.statuses == [200, 200], "cut at \(cut)")
      #expect(connection.violations() == [])
    }
  }
}

/// A stream's chunks, handed out one per call.
private final class Chunks: Sendable {
  private let chunks: Mutex<[String]>
  init(_ chunks: [String]) { self.chunks = Mutex(chunks) }
  func next() -> [UInt8]? {
    chunks.withLock { chunks in chunks.isEmpty ? nil : Array(chunks.removeFirst().utf8) }
  }
}
