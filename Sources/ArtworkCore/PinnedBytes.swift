#if canImport(Glibc)
  import Glibc
#endif

/// Bytes at an address that stays put for as long as the value lives: what a C decoder that keeps
/// reading its input after the call that handed it over (libvips' lazy loads, a libjpeg decode
/// read a strip at a time) must be given.
///
/// NOTE: an array's `withUnsafeBytes` lends its address for the closure only; Swift promises
/// nothing about it afterwards. The bytes here are either a private copy in memory the value
/// allocated, or memory it was handed with the duty to release it (a worker's mapping of its
/// input). Either way they never move and never change, so the value is `Sendable`.
public final class PinnedBytes: @unchecked Sendable {
  /// How many bytes there are.
  public let count: Int
  private let start: UnsafeRawPointer
  private let release: @Sendable (UnsafeMutableRawPointer, Int) -> Void

  /// A private copy of `bytes`.
  public init(copying bytes: some Collection<UInt8>) {
    let count = bytes.count
    // One byte at least: an empty input still has an address to hand over.
    let memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, count), alignment: 16)
    let typed = memory.bindMemory(to: UInt8.self, capacity: max(1, count))
    _ = UnsafeMutableBufferPointer(start: typed, count: count).initialize(from: bytes)
    self.count = count
    start = UnsafeRawPointer(memory)
    release = { memory, _ in memory.deallocate() }
  }

  /// Takes over `count` bytes at `start`, which `release` gives back when the value is gone
  /// (a mapping's `munmap`). The caller must not change them meanwhile.
  package init(
    adopting start: UnsafeRawPointer, count: Int,
    release: @escaping @Sendable (UnsafeMutableRawPointer, Int) -> Void
  ) {
    self.start = start
    self.count = count
    self.release = release
  }

  deinit { release(UnsafeMutableRawPointer(mutating: start), count) }

  /// Whether there are no bytes.
  public var isEmpty: Bool { count == 0 }

  /// Calls `body` with the bytes.
  public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R)
    throws(E) -> R
  {
    try body(UnsafeRawBufferPointer(start: start, count: count))
  }

  /// The address of the first byte, for a C library that reads the bytes after the call that
  /// handed them over. Valid while this value lives: keep the value alive beside whatever the
  /// library made of the address (a `VipsSource`, a decode in progress).
  package var address: UnsafePointer<UInt8> { start.assumingMemoryBound(to: UInt8.self) }

  /// The first `length` bytes (or all of them, when there are fewer), copied.
  public func prefix(_ length: Int) -> [UInt8] {
    withUnsafeBytes { Array($0.prefix(max(0, length))) }
  }
}
