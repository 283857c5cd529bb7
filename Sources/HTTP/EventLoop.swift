internal import CHTTPParser
import Glibc
import Synchronization

/// One server thread: an epoll loop that accepts connections from the shared listening socket,
/// reads, parses and writes them without blocking, and runs work other threads post to it
/// (handler answers, stream chunks, shutdown steps).
///
/// NOTE: `@unchecked Sendable` because everything but `mailbox` is confined to the loop's own
/// thread: `post` is the only entry from other threads, and it takes the mailbox lock. The
/// connections it serves are plain classes owned by the loop and never leave its thread.
final class EventLoop: @unchecked Sendable {
  /// Work for the loop thread, posted from anywhere.
  typealias Job = @Sendable (EventLoop) -> Void

  private struct Mailbox {
    var jobs: [Job] = []
    /// Whether the eventfd was written since the loop last emptied the mailbox.
    var signalled = false
    /// Set when the loop stopped: later jobs are dropped.
    var closed = false
  }

  let core: ServerCore
  /// The connections this loop serves, for choosing where a new one goes.
  let load = Atomic<Int>(0)
  /// The connections of this loop idle between requests, counted at its last tick (and
  /// lowered as they are promised to new connections): those it may close at the limit.
  let idleKeptAlive = Atomic<Int>(0)
  /// Since when (`Moment` nanoseconds) the longest-idle of them idles, at the last tick.
  let oldestIdleSince = Atomic<Int64>(.max)
  private let epoll: Int32
  private let wake: Int32
  private let listener: Int32
  private let mailbox = Mutex(Mailbox())
  private var thread: pthread_t = 0

  // MARK: Loop-confined state

  /// The open connections by descriptor.
  private var connections: [Int32: Connection] = [:]
  /// Connections to drive again soon (they stopped reading to let others run).
  private var ready: [Connection] = []
  private var nextSerial: UInt64 = 0
  private var listening = true
  private var stopped = false
  private var lastTick = Moment.now
  /// The time of the current loop iteration.
  private(set) var now = Moment.now
  /// The buffer every read of this loop goes through.
  let scratch: UnsafeMutableRawBufferPointer
  /// The `Date` line of every answer on this loop.
  let date = HTTPDate()

  private static let listenerToken = UInt64.max
  private static let wakeToken = UInt64.max - 1
  /// How often deadlines are checked.
  private static let tickInterval = Duration.milliseconds(100)

  /// A loop accepting from `listener`; call `start`.
  init(core: ServerCore, listener: Int32) throws(HTTPServerError) {
    self.core = core
    self.listener = listener
    epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    wake = artwork_http_eventfd()
    scratch = .allocate(byteCount: 64 * 1024, alignment: 16)
    guard epoll >= 0, wake >= 0,
      artwork_http_epoll_add(epoll, wake, artwork_http_event_in(), Self.wakeToken) == 0,
      artwork_http_epoll_add(
        epoll, listener, artwork_http_event_in() | artwork_http_event_exclusive(),
        Self.listenerToken) == 0
    else {
      let reason = String(cString: strerror(errno))
      if epoll >= 0 { close(epoll) }
      if wake >= 0 { close(wake) }
      scratch.deallocate()
      throw .startFailed(
        host: core.configuration.host, port: core.configuration.port, reason: reason)
    }
  }

  deinit {
    scratch.deallocate()
  }

  /// Starts the loop's thread.
  func start(name: String) {
    let box = Unmanaged.passRetained(ThreadStart(loop: self, name: name))
    pthread_create(
      &thread, nil,
      { raw in
        let start = Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue()
        artwork_http_name_thread(start.name)
        start.loop.run()
        return nil
      }, box.toOpaque())
  }

  /// Waits for the loop's thread to end (after `stop`).
  func join() {
    pthread_join(thread, nil)
  }

  /// Runs `job` on the loop thread soon. Returns false (dropping the job) once the loop stopped.
  @discardableResult
  func post(_ job: @escaping Job) -> Bool {
    mailbox.withLock { mailbox in
      guard !mailbox.closed else { return false }
      mailbox.jobs.append(job)
      if !mailbox.signalled {
        mailbox.signalled = true
        // NOTE: written under the lock so that it can never reach a closed (reused) descriptor.
        artwork_http_eventfd_signal(wake)
      }
      return true
    }
  }

  /// Runs `job` on the loop thread and returns once it ran (at once if the loop stopped).
  func perform(_ job: @escaping Job) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let accepted = post { loop in
        job(loop)
        continuation.resume()
      }
      if !accepted { continuation.resume() }
    }
  }

  // MARK: - The loop

  private func run() {
    var tokens = [UInt64](repeating: 0, count: 64)
    var events = [UInt32](repeating: 0, count: 64)
    while !stopped {
      let timeout: Int32 = ready.isEmpty ? 100 : 0
      let count = artwork_http_epoll_wait(epoll, &tokens, &events, 64, timeout)
      now = .now
      for index in 0..<max(0, Int(count)) {
        switch tokens[index] {
        case Self.listenerToken: acceptConnections()
        case Self.wakeToken: runMailbox()
        default:
          guard let connection = connections[Int32(truncatingIfNeeded: tokens[index])] else {
            continue
          }
          let event = events[index]
          if event & artwork_http_event_hangup() != 0 { connection.peerHungUp = true }
          if event & artwork_http_event_gone() != 0 { connection.peerGone = true }
          connection.drive()
        }
      }
      if !ready.isEmpty {
        let again = ready
        ready.removeAll(keepingCapacity: true)
        for connection in again { connection.drive() }
      }
      if now - lastTick >= Self.tickInterval {
        lastTick = now
        var idle = 0
        var oldestIdle = Int64.max
        for connection in Array(connections.values) {
          connection.tick()
          if connection.machine.idlesKeptAlive {
            idle += 1
            oldestIdle = min(oldestIdle, connection.machine.stateStarted.nanoseconds)
          }
        }
        idleKeptAlive.store(idle, ordering: .relaxed)
        oldestIdleSince.store(oldestIdle, ordering: .relaxed)
      }
    }
    mailbox.withLock { $0.closed = true }
    for connection in Array(connections.values) { connection.receive(.serverStopped) }
    runMailbox()
    close(epoll)
    close(wake)
  }

  private func runMailbox() {
    artwork_http_eventfd_clear(wake)
    let jobs = mailbox.withLock { mailbox -> [Job] in
      mailbox.signalled = false
      defer { mailbox.jobs.removeAll() }
      return mailbox.jobs
    }
    for job in jobs { job(self) }
  }

  /// Accepts what the backlog holds (a bounded batch, so one loop cannot starve its connections).
  private func acceptConnections() {
    guard listening else { return }
    var address = [CChar](repeating: 0, count: 64)
    for _ in 0..<64 {
      let fd = address.withUnsafeMutableBufferPointer { buffer in
        artwork_http_accept(listener, buffer.baseAddress, socklen_t(buffer.count))
      }
      guard fd >= 0 else { return }
      let text = address.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      let network = core.configuration.clientNetworks.key(text)
      switch core.limits.admit(network, makingRoom: core.makeRoom) {
      case .refused(let refusal):
        answer(fd, address: text, refusal)
        close(fd)
        continue
      case .replacing(let victim):
        // The victim's loop closes it; its slot counts this connection already.
        core.connectionsShed.add(1, ordering: .relaxed)
        victim.loop.post { $0.shed(victim) }
      case .reclaiming(let loop):
        core.idleConnectionsClosed.add(1, ordering: .relaxed)
        loop.post { $0.closeOldestIdle() }
      case .admitted:
        break
      }
      // NOTE: one wake-up of the shared listening socket can accept a whole burst, so each
      // connection goes to the loop serving the fewest; otherwise 32 connections opened at once
      // would all be served by one thread while the other idles.
      let target = core.leastLoadedLoop() ?? self
      let head = PendingHead(
        fd: fd, address: text, network: network, loop: target, accepted: now)
      core.heads.add(head)
      if target === self {
        adopt(head)
      } else if !target.post({ $0.adopt(head) }) {
        close(fd)
        if core.heads.leave(head) { core.limits.release(network) }
      }
    }
  }

  /// Starts serving an accepted connection on this loop.
  private func adopt(_ head: PendingHead) {
    nextSerial += 1
    let fd = head.fd
    let connection = Connection(loop: self, head: head, serial: nextSerial)
    guard
      artwork_http_epoll_add(
        epoll, fd,
        artwork_http_event_in() | artwork_http_event_out() | artwork_http_event_hangup()
          | artwork_http_event_edge(), UInt64(fd)) == 0
    else {
      close(fd)
      if core.heads.leave(head) { core.limits.release(head.network) }
      return
    }
    connections[fd] = connection
    load.add(1, ordering: .relaxed)
    connection.drive()
  }

  /// Closes a connection shed at the connection limit (`HeadRegistry`), when it is still the
  /// one `head` names: it is answered 503 if it still waits for its first head (a connection
  /// whose head arrived as it was chosen just closes), and its slot is a newer connection's.
  func shed(_ head: PendingHead) {
    guard let connection = connections[head.fd], connection.head === head else { return }
    connection.shed(answer: Self.shedAnswer)
  }

  /// Closes the connection that has idled longest between requests, to give its slot to a
  /// newer connection admitted past the limit (`ConnectionLimits.admit`). Closing it says
  /// nothing to the client, as HTTP lets a server close an idle connection at any time; clients
  /// open a new one for their next request. When none idles any more, nothing closes: the
  /// count stays past the limit until a connection ends.
  func closeOldestIdle() {
    var oldest: Connection?
    for connection in connections.values where connection.machine.idlesKeptAlive {
      if let found = oldest, found.machine.stateStarted <= connection.machine.stateStarted {
        continue
      }
      oldest = connection
    }
    oldest?.receive(.shed)
  }

  private static let shedAnswer = ServerAnswer(
    status: 503,
    detail:
      "The server is at its connection limit, and this connection had not sent a whole request "
      + "head: it gave its place to a newer one. Send the request at once after connecting.")

  /// Answers a connection refused (over a limit, or shed) at once, and shuts the sending side:
  /// what the client already sent is read first, so the close that follows does not reset the
  /// answer away. The answer is logged.
  func answer(_ fd: Int32, address: String, _ refusal: ServerAnswer) {
    _ = artwork_http_recv(fd, scratch.baseAddress, scratch.count)
    let id = RequestID.generate()
    let response = core.problem(refusal, requestID: id)
    var body: [UInt8] = []
    if case .bytes(let bytes) = response.body { body = bytes }
    let head = ResponseHead.bytes(
      status: response.status, headers: response.headers, framing: .length(body.count),
      requestID: id, persistence: .close, date: date.current())
    let bytes = head + body
    _ = bytes.withUnsafeBytes { buffer in
      var vector = iovec(
        iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress), iov_len: buffer.count)
      return artwork_http_sendv(fd, &vector, 1)
    }
    _ = artwork_http_shutdown_write(fd)
    core.log(
      HTTPAccessRecord(
        id: id, method: HTTPMethod(rawValue: "-"), target: nil, unparsedTarget: nil, route: nil,
        status: response.status,
        duration: 0, bytesSent: body.count, remoteAddress: address, completed: true))
  }

  // MARK: - For connections

  /// Drives `connection` again on the next iteration.
  func schedule(_ connection: Connection) {
    ready.append(connection)
  }

  /// The connection on `fd` if it is still the one numbered `serial`.
  func connection(_ fd: Int32, serial: UInt64) -> Connection? {
    guard let connection = connections[fd], connection.serial == serial else { return nil }
    return connection
  }

  /// Forgets a closed connection.
  func remove(_ connection: Connection) {
    if connections[connection.fd] === connection {
      connections[connection.fd] = nil
      load.subtract(1, ordering: .relaxed)
    }
  }

  // MARK: - Shutdown steps (run on the loop thread)

  /// Stops accepting; the listening socket is closed by the server once every loop did this.
  func stopListening() {
    guard listening else { return }
    listening = false
    _ = artwork_http_epoll_remove(epoll, listener)
  }

  /// Closes connections that wait for a request; the others close after their answer.
  func closeIdle() {
    for connection in Array(connections.values) { connection.receive(.shutdownBegan) }
  }

  /// Answers 503 to requests still waiting for their handler and closes everything else.
  func abortAll() {
    for connection in Array(connections.values) { connection.receive(.graceOver) }
  }

  /// Ends the loop after this iteration, closing every connection.
  func stop() {
    stopped = true
  }
}

/// What a loop thread starts with.
private final class ThreadStart {
  let loop: EventLoop
  let name: String

  init(loop: EventLoop, name: String) {
    self.loop = loop
    self.name = name
  }
}
