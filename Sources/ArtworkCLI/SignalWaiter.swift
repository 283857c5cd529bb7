import Dispatch
import Foundation
import Synchronization

/// Waits for SIGTERM or SIGINT without a C signal handler: the signals are ignored at the process
/// level and delivered through Dispatch sources.
enum SignalWaiter {
  /// The first signal received, and the waiter to hand it to.
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

  /// Returns the first of SIGTERM/SIGINT to arrive.
  static func wait() async -> Int32 {
    let state = State()
    // One serial queue of our own for the two signal sources: they do nothing but resume us.
    let queue = DispatchQueue(label: "artwork-signals")
    let sources = [SIGTERM, SIGINT].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { state.deliver(number) }
      source.resume()
      return source
    }
    let received = await withCheckedContinuation { state.wait($0) }
    for source in sources { source.cancel() }
    return received
  }
}
