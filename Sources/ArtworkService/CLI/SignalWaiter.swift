import Dispatch
import Foundation
import Synchronization

/// Waits for SIGTERM or SIGINT without a C signal handler: the signals are ignored at the process
/// level and delivered through Dispatch sources.
enum SignalWaiter {
  /// Returns the first of SIGTERM/SIGINT to arrive.
  static func wait() async -> Int32 {
    let signals = [SIGTERM, SIGINT]
    for number in signals { signal(number, SIG_IGN) }
    let resumed = Mutex(false)
    let holder = Mutex<[DispatchSourceSignal]>([])
    let received: Int32 = await withCheckedContinuation { continuation in
      var sources: [DispatchSourceSignal] = []
      for number in signals {
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
          let first = resumed.withLock { done in
            defer { done = true }
            return !done
          }
          if first { continuation.resume(returning: number) }
        }
        source.resume()
        sources.append(source)
      }
      // NOTE: the sources must outlive this closure; they are cancelled once a signal arrived.
      holder.withLock { $0 = sources }
    }
    holder.withLock { sources in
      for source in sources { source.cancel() }
    }
    return received
  }
}
