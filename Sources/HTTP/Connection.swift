internal import CHTTPParser
import Glibc

/// One client connection's socket, served by the loop that accepted it: the system calls around
/// its `ConnectionMachine`. It reads what the machine asks for, tells it what happened, and
/// takes the actions it decides (write, half-close, close, run a handler or fetch a chunk off
/// the loop thread). Every decision about HTTP is the machine's.
///
/// Confined to its loop's thread. Work done elsewhere (handlers, stream chunks) comes back
/// through `EventLoop.post`, carrying the connection's descriptor, `serial` and the exchange's
/// number, so a late answer never reaches a connection or request it was not meant for.
final class Connection {
  unowned let loop: EventLoop
  let fd: Int32
  let serial: UInt64
  let machine: ConnectionMachine
  /// The connection's entry among those without a first head (`HeadRegistry`): it leaves when
  /// the first head arrives, and names the connection when it is shed.
  let head: PendingHead
  /// Whether the connection is still in the registry (no first head yet, not closed).
  private var awaitingFirstHead = true
  /// The task of the last handler started, and its exchange's number: cancelled when the
  /// machine no longer wants its answer (`.cancel`).
  private var handler: (number: UInt64, task: Task<Void, Never>)?
  /// Set when epoll reported the client's end of stream (a FIN, or a reset): the end must be
  /// read now, with the last bytes, as no further edge will come.
  var peerHungUp = false
  /// Set when epoll reported the client gone both ways (a reset, an error).
  var peerGone = false

  init(loop: EventLoop, head: PendingHead, serial: UInt64) {
    self.loop = loop
    self.head = head
    fd = head.fd
    self.serial = serial
    machine = ConnectionMachine(
      core: loop.core, address: head.address, network: head.network, date: loop.date,
      now: loop.now)
    loop.core.live.increment()
  }

  deinit {
    loop.core.live.decrement()
  }

  /// Tells the machine `event`, takes the actions it decided and reads what it then wants.
  func receive(_ event: ConnectionEvent) {
    machine.handle(event, at: loop.now)
    takeActions()
    readInput()
  }

  /// Applies the deadlines of the connection's state. Input is read only when the tick moved
  /// the connection (a parked answer went out, say): otherwise nothing can wait in the socket
  /// unseen (its edge was read to the end, or the connection is scheduled), and a read would
  /// only cost a system call answering EAGAIN, for every idle connection ten times a second.
  func tick() {
    let before = machine.state
    machine.handle(.tick, at: loop.now)
    takeActions()
    if machine.state != before { readInput() }
  }

  /// Does all that can be done now: writes what is queued, then reads and handles input while
  /// the machine wants it. Called on every readiness event.
  func drive() {
    guard machine.state != .closed else { return }
    if peerGone {
      receive(.peerReset)
      return
    }
    // The machine decides whether anything goes out (`.write`); the connection never writes
    // on its own.
    receive(.writable)
  }

  /// Reads until the socket is empty or the machine stops wanting input. At most 16 reads at a
  /// time: a connection with more waiting is driven again after the loop's other work.
  private func readInput() {
    var reads = 0
    while true {
      let demand = machine.demand
      guard demand != .none else { return }
      if reads == 16 {
        loop.schedule(self)
        return
      }
      reads += 1
      let scratch = loop.scratch
      // Dropped bytes are never copied.
      let count =
        demand == .discard
        ? artwork_http_discard(fd, 1 << 20)
        : artwork_http_recv(fd, scratch.baseAddress, scratch.count)
      if count > 0 {
        if demand == .discard {
          machine.handle(.discarded(count), at: loop.now)
        } else {
          machine.handle(
            .received(UnsafeRawBufferPointer(rebasing: scratch[..<count])), at: loop.now)
        }
        takeActions()
        // NOTE: a short read emptied the socket; bytes arriving later raise a new edge, so
        // asking again now would only cost a system call that answers EAGAIN. Unless the client
        // has closed its side: then no edge will come, and the end of the stream must be read
        // now, with the last bytes, or the connection would wait for its deadline.
        if demand == .parse, count < scratch.count, !peerHungUp { return }
      } else {
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
        machine.handle(count == 0 ? .peerClosed : .socketFailed, at: loop.now)
        takeActions()
        return
      }
    }
  }

  /// Closes the connection, shed at the connection limit: `answer` goes out first while it
  /// still waits for its first head.
  func shed(answer: ServerAnswer) {
    let state = machine.state
    guard state != .closed else { return }
    if state == .awaitingRequest || state == .readingHead {
      loop.answer(fd, address: machine.address, answer)
    }
    receive(.shed)
  }

  /// Takes the machine's actions in order (a write's outcome may add more).
  private func takeActions() {
    if awaitingFirstHead, machine.state != .awaitingRequest, machine.state != .readingHead {
      // The first head arrived (or the connection is ending): it can no longer be shed. When it
      // was shed just before, its loop closes it next (`EventLoop.shed`).
      awaitingFirstHead = false
      _ = loop.core.heads.leave(head)
    }
    while let action = machine.takeAction() {
      switch action {
      case .write:
        write()
      case .halfClose:
        _ = artwork_http_shutdown_write(fd)
      case .close:
        Glibc.close(fd)
        awaitingFirstHead = false
        // A shed connection's slot is a newer connection's already.
        if loop.core.heads.leave(head) { loop.core.limits.release(head.network) }
        loop.remove(self)
        // The descriptor may be another connection's from here on: nothing more touches it.
        while machine.takeAction() != nil {}
        return
      case .run(let number, let handler):
        let (loop, core, fd, serial) = (loop, loop.core, fd, serial)
        core.live.increment()
        // The handler runs on Swift's global executor, and goes on there after each step it
        // waits for: never on the thread that woke it (a pool thread, or another request's,
        // which would then run the waiters of one result one after another).
        let task = Task.detached {
          let response = await handler()
          loop.post { loop in
            loop.connection(fd, serial: serial)?.receive(.answered(number: number, response))
          }
          core.live.decrement()
        }
        self.handler = (number, task)
      case .cancel(let number):
        if let handler, handler.number == number {
          handler.task.cancel()
          self.handler = nil
        }
      case .fetch(let number, let next):
        let (loop, core, fd, serial) = (loop, loop.core, fd, serial)
        core.live.increment()
        Task.detached {
          let result: Result<[UInt8]?, any Error>
          do { result = .success(try await next()) } catch { result = .failure(error) }
          loop.post { loop in
            loop.connection(fd, serial: serial)?.receive(.chunk(number: number, result))
          }
          core.live.decrement()
        }
      }
    }
  }

  /// Writes what the machine queued, without blocking, and tells it how far it got.
  private func write() {
    let fd = fd
    machine.send(at: loop.now) { $0.write(to: fd) }
  }
}
