import Foundation
import Synchronization

/// A closed-loop load generator: `concurrency` threads, each with its own keep-alive connection,
/// send requests back to back until `maxRequests` have been started or `seconds` have passed.
struct LoadGenerator: Sendable {
  /// Prepared requests (head and body), sent round robin.
  var requests: [[UInt8]]
  var port: UInt16
  var concurrency: Int
  var seconds: Double
  var maxRequests: Int
  /// Time each connection waits after an exchange before the next (0: back to back), for a
  /// probe that samples latency without loading the server.
  var pause: Double = 0
  /// Whether a connection waits the `Retry-After` of a 503 (at most 5 s) before its next
  /// request, as a well-behaved client does, instead of retrying at once.
  var honoursRetryAfter = false

  /// What one run measured.
  struct Report: Sendable {
    var completed: Int
    var failures: Int
    var statuses: [Int: Int]
    var elapsed: Double
    var bodyBytes: Int
    /// Latency of every completed exchange, in seconds, sorted.
    var latencies: [Double]

    /// Completed exchanges per second.
    var rate: Double { Double(completed) / elapsed }

    /// The `fraction` quantile of the latencies in milliseconds (nearest rank).
    func percentile(_ fraction: Double) -> Double {
      guard !latencies.isEmpty else { return 0 }
      let rank = Int((fraction * Double(latencies.count)).rounded(.up)) - 1
      return latencies[min(max(rank, 0), latencies.count - 1)] * 1000
    }
  }

  /// Per-thread tallies, merged once every thread has finished.
  private struct Tally: Sendable {
    var completed = 0
    var failures = 0
    var statuses: [Int: Int] = [:]
    var bodyBytes = 0
    var latencies: [Double] = []
    var firstFailure: String?
  }

  /// State the threads share: the request counter and the finished tallies.
  private final class Shared: Sendable {
    let started = Atomic<Int>(0)
    let tallies = Mutex<[Tally]>([])
  }

  /// Runs the load and answers the merged report. Failure details go to standard error.
  func run() -> Report {
    let shared = Shared()
    let done = DispatchGroup()
    let start = DispatchTime.now().uptimeNanoseconds
    let deadline = start + UInt64(seconds * 1e9)
    for _ in 0..<concurrency {
      done.enter()
      let thread = Thread { [self] in
        let tally = worker(shared: shared, deadline: deadline)
        shared.tallies.withLock { $0.append(tally) }
        done.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
    done.wait()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    var report = Report(
      completed: 0, failures: 0, statuses: [:], elapsed: elapsed, bodyBytes: 0, latencies: [])
    for tally in shared.tallies.withLock({ $0 }) {
      report.completed += tally.completed
      report.failures += tally.failures
      report.bodyBytes += tally.bodyBytes
      report.latencies += tally.latencies
      report.statuses.merge(tally.statuses, uniquingKeysWith: +)
      if let failure = tally.firstFailure {
        FileHandle.standardError.write(Data("artwork-bench: \(failure)\n".utf8))
      }
    }
    report.latencies.sort()
    return report
  }

  /// One thread's loop: take a request number, send it, time it, until the budget is spent.
  private func worker(shared: Shared, deadline: UInt64) -> Tally {
    var tally = Tally()
    let connection = BenchConnection(port: port)
    while DispatchTime.now().uptimeNanoseconds < deadline {
      let number = shared.started.wrappingAdd(1, ordering: .relaxed).oldValue
      guard number < maxRequests else { break }
      let request = requests[number % requests.count]
      let before = DispatchTime.now().uptimeNanoseconds
      do {
        let (status, bodyBytes) = try connection.exchange(request)
        let after = DispatchTime.now().uptimeNanoseconds
        tally.latencies.append(Double(after - before) / 1e9)
        tally.completed += 1
        tally.bodyBytes += bodyBytes
        tally.statuses[status, default: 0] += 1
        if pause > 0 { usleep(useconds_t(pause * 1e6)) }
        if honoursRetryAfter, status == 503, let wait = connection.retryAfter {
          usleep(useconds_t(min(max(wait, 0), 5)) * 1_000_000)
        }
      } catch {
        tally.failures += 1
        if tally.firstFailure == nil { tally.firstFailure = error.description }
        connection.close()
      }
    }
    return tally
  }
}
