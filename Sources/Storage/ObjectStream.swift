import ArtworkCore
import Synchronization

/// A stored object being read: its length and its bytes, chunk by chunk.
public struct ObjectStream: Sendable {
  /// The object length in bytes.
  public var length: Int
  /// The next chunk, nil at the end.
  public var next: @Sendable () async throws -> [UInt8]?
  /// The whole object, when the first read already brought all of it: it can then be answered
  /// in one piece, without reading chunk by chunk.
  public var complete: [UInt8]?

  /// A stream of `length` bytes produced chunk by chunk by `next`.
  public init(length: Int, next: @escaping @Sendable () async throws -> [UInt8]?) {
    self.length = length
    self.next = next
  }

  /// An object read whole.
  public init(bytes: [UInt8]) {
    let chunk = OneShot(bytes)
    self.init(length: bytes.count) { chunk.take() }
    complete = bytes
  }
}

extension ArtworkStorage {
  /// Default: the whole object as one chunk (objects are at most 2 MB).
  public func stream(_ key: ArtworkKey) async throws(ArtworkError) -> ObjectStream? {
    guard let object = try await get(key) else { return nil }
    return ObjectStream(bytes: object.bytes)
  }
}

/// A value handed out once, then nil.
private final class OneShot: Sendable {
  private let value: Mutex<[UInt8]?>
  init(_ value: [UInt8]) { self.value = Mutex(value) }
  func take() -> [UInt8]? {
    value.withLock { value in
      defer { value = nil }
      return value
    }
  }
}
