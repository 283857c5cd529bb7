/// What happens to a connection, as `ConnectionMachine` is told it.
enum ConnectionEvent {
  /// Bytes arrived from the client (read while the machine asked for `.parse`). The machine
  /// takes them all: what it cannot use yet it keeps for later (at most one read's worth).
  case received(UnsafeRawBufferPointer)
  /// Bytes arrived and were dropped unread (while the machine asked for `.discard`).
  case discarded(Int)
  /// The client closed its sending side (a read found the end of the stream).
  case peerClosed
  /// The client is gone both ways (a reset, a socket error): nothing reaches it any more.
  case peerReset
  /// A read or a system call on the socket failed.
  case socketFailed
  /// The connection wrote what `output` held, or part of it.
  case wrote(OutputQueue.Outcome)
  /// The socket has room again: what the machine queued may go out (it answers `.write` when
  /// something is queued, nothing otherwise).
  case writable
  /// The handler of exchange `number` answered.
  case answered(number: UInt64, HTTPResponse)
  /// The stream of exchange `number` produced its next chunk (nil: its end) or failed.
  case chunk(number: UInt64, Result<[UInt8]?, any Error>)
  /// Time passed: deadlines are checked (the loop ticks every 100 ms).
  case tick
  /// Graceful shutdown began: a connection waiting for a request closes; the others close
  /// after their answer (the machine keeps this: nothing else tells it the server drains).
  case shutdownBegan
  /// The shutdown's grace ran out (or the server stops without one): a request still waiting
  /// for its handler (or still sending its body) is answered 503, anything else is closed.
  /// It implies `.shutdownBegan`.
  case graceOver
  /// The server stops now: the connection closes whatever it was doing.
  case serverStopped
  /// The connection was shed at the connection limit, its slot given to a newer connection:
  /// before its first head arrived (`HeadRegistry`; the socket around it has written the 503
  /// already, as for a connection refused when accepted), or idle between requests
  /// (`EventLoop.closeOldestIdle`; closed without a word, as HTTP allows). It closes now.
  case shed
}

/// What `ConnectionMachine` asks of the socket around it, in order.
enum ConnectionAction {
  /// Write what `output` holds, then report `.wrote`.
  case write
  /// Run exchange `number`'s handler off the loop thread; report `.answered` with its answer.
  case run(number: UInt64, @Sendable () async -> HTTPResponse)
  /// Cancel exchange `number`'s handler: its answer is no longer wanted (its deadline passed
  /// and the client was answered 503). Cooperative work in it (a sleep, a fetch, a wait) stops.
  case cancel(number: UInt64)
  /// Fetch the next chunk of exchange `number`'s stream off the loop thread; report `.chunk`.
  case fetch(number: UInt64, @Sendable () async throws -> [UInt8]?)
  /// Shut the sending side: the last answer is all written.
  case halfClose
  /// Close the socket and give back the connection's slot; the machine released the rest.
  case close
}

/// What the machine wants read from the socket now.
enum InputDemand: Equatable {
  /// Nothing: the connection is answering, parked or closed (the client waits in TCP).
  case none
  /// Bytes, for `.received`.
  case parse
  /// Bytes to drop without reading them (`.discarded`): the last answer is out.
  case discard
}
