import Dispatch
import Foundation
import Synchronization

/// The signals `artwork serve` answers, without a C signal handler: each is ignored at the
/// process level and delivered through a Dispatch source on one serial queue of our own.
/// SIGTERM and SIGINT end `wait()`; SIGHUP calls `onHangUp` each time and the wait goes on.
///
/// Made before the service says it is listening, so that a signal sent as soon as it does is
/// never met by the default action (which, for SIGHUP, ends the process).
final class SignalWaiter {
  /// The first stopping signal received, and the waiter to hand it to.
  private final class State: Sendable {
    private struct Inner {
      var waiter: CheckedContinuation<Int32, Never>?
      var received: Int32?
    }
    private let inner = Mutex(Inner())

    func deliver(_ number: Int32) {
      inner.withLock { inner in
        guard inner.received == nil else { return }
        inner.received = number
        inner.waiter?.resume(returning: number)
        inner.waiter = nil
      }
    }

    func wait(_ continuation: CheckedContinuation<Int32, Never>) {
      inner.withLock { inner in
        if let received = inner.received {
          continuation.resume(returning: received)
        } else {
          inner.waiter = continuation
        }
      }
    }
  }

  private let state = State()
  private let sources: [any DispatchSourceSignal]

  /// Starts listening for SIGTERM, SIGINT and SIGHUP; `onHangUp` runs on the signal queue.
  init(onHangUp: @escaping @Sendable () -> Void) {
    let queue = DispatchQueue(label: "artwork-signals")
    let state = self.state
    func source(_ number: Int32, _ handler: @escaping @Sendable () -> Void)
      -> any DispatchSourceSignal
    {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler(handler: handler)
      source.resume()
      return source
    }
    sources =
      [SIGTERM, SIGINT].map { number in source(number) { state.deliver(number) } }
      + [source(SIGHUP, onHangUp)]
  }

  deinit {
    for source in sources { source.cancel() }
  }

  /// Returns the first of SIGTERM/SIGINT to arrive (at once if one came already).
  func wait() async -> Int32 {
    await withCheckedContinuation { state.wait($0) }
  }
}
