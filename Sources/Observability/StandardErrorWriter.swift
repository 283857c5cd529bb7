import ArtworkCore
import Dispatch
import Foundation
import Glibc
import Synchronization

/// Standard error without blocking anyone who logs: lines go into a bounded buffer, and one
/// thread of its own writes them out. A logging thread (an event loop among them) only appends
/// to memory under a short lock; when standard error is slow (a full pipe, a stalled terminal),
/// the buffer fills and further lines are dropped and counted (`droppedLines`, in `/metrics`),
/// rather than stalling every connection behind a blocked `write(2)`.
///
/// Two buffers of `capacity` bytes: loggers append to one while the writer writes the other out,
/// then they swap. Neither allocates after start-up. The writer is woken only from its sleep
/// (by the first line after a quiet spell); while lines keep coming it writes what gathered
/// every millisecond, so a busy server pays one `write` per batch, not a wake-up per line.
final class StandardErrorWriter: Sendable {
  static let shared = StandardErrorWriter(descriptor: 2, capacity: 1 << 20)

  private struct State {
    /// Where lines are appended.
    var filling: [UInt8]
    /// The other buffer, empty, while the writer does not hold it.
    var spare: [UInt8]?
    /// The line being built, its storage kept from line to line.
    var line = LogLine()
    var dropped = 0
    /// Whether the writer waits for `wake` (found nothing to write); else it comes back by
    /// itself within a millisecond.
    var writerAsleep = false
  }

  private let descriptor: Int32
  private let capacity: Int
  private let state: Mutex<State>
  private let wake = DispatchSemaphore(value: 0)
  /// Signalled by the writer each time the buffer it took is out.
  private let written = DispatchSemaphore(value: 0)

  /// A writer to `descriptor` (standard error; a pipe in tests) buffering `capacity` bytes.
  init(descriptor: Int32, capacity: Int) {
    self.descriptor = descriptor
    self.capacity = capacity
    var filling = [UInt8]()
    filling.reserveCapacity(capacity)
    var spare = [UInt8]()
    spare.reserveCapacity(capacity)
    state = Mutex(State(filling: filling, spare: spare))
    let thread = Thread { [self] in run() }
    thread.name = "artwork-log"
    thread.start()
  }

  /// Lines dropped because the buffer was full, since the process started.
  var droppedLines: Int { state.withLock { $0.dropped } }

  func write(_ line: String) {
    var line = line
    line.withUTF8 { bytes in append { $0.append(contentsOf: bytes) } }
  }

  /// Builds a line in the writer's own line buffer and appends it: no storage of its own.
  func write(_ build: (inout LogLine) -> Void) {
    let mustWake = state.withLock { state -> Bool in
      state.line.removeAll()
      build(&state.line)
      return Self.append(state.line.bytes, to: &state, capacity: capacity)
    }
    if mustWake { wake.signal() }
  }

  private func append(_ body: (inout [UInt8]) -> Void) {
    let mustWake = state.withLock { state -> Bool in
      var bytes = [UInt8]()
      body(&bytes)
      return Self.append(bytes, to: &state, capacity: capacity)
    }
    if mustWake { wake.signal() }
  }

  /// Appends `line` if it fits; answers whether the writer sleeps and is to be woken.
  private static func append(_ line: [UInt8], to state: inout State, capacity: Int) -> Bool {
    guard state.filling.count + line.count <= capacity else {
      state.dropped += 1
      return false
    }
    state.filling.append(contentsOf: line)
    return wakeWriter(&state)
  }

  /// Marks the writer awake; answers whether it was asleep (the caller signals `wake`).
  private static func wakeWriter(_ state: inout State) -> Bool {
    guard state.writerAsleep else { return false }
    state.writerAsleep = false
    return true
  }

  /// Waits until every line appended so far is written (or `timeout` passed): before the process
  /// exits.
  func flush(timeout: Duration = .seconds(2)) {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      let (idle, mustWake) = state.withLock { state in
        (state.filling.isEmpty && state.spare != nil, Self.wakeWriter(&state))
      }
      if mustWake { wake.signal() }
      if idle { return }
      _ = written.wait(timeout: .now() + .milliseconds(50))
    }
  }

  /// The writer's life: take the filled buffer, give back the empty one, write it out, and come
  /// back a millisecond later for what gathered meanwhile; sleep when nothing did.
  private func run() {
    while true {
      let taken = state.withLock { state -> [UInt8]? in
        guard !state.filling.isEmpty, var spare = state.spare else {
          state.writerAsleep = true
          return nil
        }
        swap(&state.filling, &spare)
        state.spare = nil
        return spare
      }
      guard var full = taken else {
        wake.wait()
        continue
      }
      full.withUnsafeBytes { Self.write($0, to: descriptor) }
      full.removeAll(keepingCapacity: true)
      state.withLock { $0.spare = full }
      written.signal()
      usleep(1000)
    }
  }

  private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
    // Nowhere to report a failure to log; drop the lines.
    _ = try? POSIXIO.writeAll(descriptor, bytes)
  }
}
