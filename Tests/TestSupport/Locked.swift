import Synchronization

/// A value behind a lock, shareable by reference (e.g. records collected from callbacks).
///
/// NOTE: ThreadSanitizer on this toolchain reports false "Swift access race"s on
/// `Synchronization.Mutex` (the library's lock is not instrumented).
public final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  /// Wraps `value`.
  public init(_ value: Value) { mutex = Mutex(value) }

  /// Runs `body` with exclusive access to the value.
  public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    mutex.withLock { body(&$0) }
  }
}
