import Dispatch
import Foundation
import Synchronization

/// Ctrl-C for the batch commands: the first SIGINT (or SIGTERM) asks the run to stop taking new
/// inputs and lets the running ones finish; a second one exits at once (status 130). Signals are
/// delivered through Dispatch sources, not a C handler.
final class Interruption: Sendable {
  private let received = Atomic<Int>(0)

  /// Whether a stop was asked for.
  var isRequested: Bool { received.load(ordering: .relaxed) > 0 }

  /// Starts listening; `onFirst` runs (on the signal queue) when the first signal arrives. Keep
  /// the returned sources for as long as signals should be handled.
  func listen(onFirst: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
    let queue = DispatchQueue(label: "artwork-interrupt")
    return [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { [self] in
        if received.add(1, ordering: .relaxed).newValue == 1 {
          onFirst()
        } else {
          exit(130)
        }
      }
      source.resume()
      return source
    }
  }
}
