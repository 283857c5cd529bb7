import Synchronization

/// A content-addressed artwork id: the lowercase hex SHA-256 of the stored bytes.
public struct ArtworkID: Sendable, Hashable, CustomStringConvertible {
  public let hex: String

  /// Accepts exactly 64 lowercase hex digits; anything else is not an id (and never reaches storage).
  public init?(hex: String) {
    guard hex.utf8.count == 64,
      hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else { return nil }
    self.hex = hex
  }

  public var description: String { hex }
}

/// The stored file formats.
public enum StoredFormat: String, Sendable, Hashable, CaseIterable {
  case jpeg, png

  public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
  public var contentType: String { self == .jpeg ? "image/jpeg" : "image/png" }

  public init?(fileExtension: String) {
    switch fileExtension {
    case "jpg": self = .jpeg
    case "png": self = .png
    default: return nil
    }
  }
}

/// The name of one stored artwork object: `{id}.{ext}`.
public struct ArtworkKey: Sendable, Hashable, CustomStringConvertible {
  public let id: ArtworkID
  public let format: StoredFormat

  /// An object never changes under its name (the name is its content hash): whoever serves it,
  /// the service or a bucket behind a CDN, may let it be cached for a year.
  static let cacheControl = "public, max-age=31536000, immutable"

  public init(id: ArtworkID, format: StoredFormat) {
    self.id = id
    self.format = format
  }

  /// Parses `{64 hex}.{jpg|png}`; anything else is nil.
  public init?(fileName: String) {
    let parts = fileName.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let id = ArtworkID(hex: String(parts[0])),
      let format = StoredFormat(fileExtension: String(parts[1]))
    else { return nil }
    self.init(id: id, format: format)
  }

  public var fileName: String { "\(id.hex).\(format.fileExtension)" }
  public var description: String { fileName }
}

/// An object read back from storage.
public struct StoredObject: Sendable {
  public var key: ArtworkKey
  public var bytes: [UInt8]
}

/// Where artwork lives. Implementations: `FileSystemStorage` (default) and `S3Storage`.
///
/// Contract, shared by every backend and tested by one suite:
/// - `put` is create-only and atomic: a reader sees the whole object or nothing. Storing a key
///   that exists already is success (ids are content hashes); `put` answers whether it created
///   the object.
/// - `get`/`head` answer nil for a key that is not stored.
/// - Records are small opaque values under a text key (the URL result cache); `putRecord`
///   overwrites atomically.
/// - Failures are `ArtworkError` of kind `.storageUnavailable` (with `retryAfter`) or `.internal`.
public protocol ArtworkStorage: Sendable {
  @discardableResult
  func put(_ key: ArtworkKey, bytes: [UInt8]) async throws(ArtworkError) -> Bool
  func get(_ key: ArtworkKey) async throws(ArtworkError) -> StoredObject?
  /// The stored size in bytes, or nil when not stored.
  func head(_ key: ArtworkKey) async throws(ArtworkError) -> Int?

  func putRecord(_ name: String, bytes: [UInt8]) async throws(ArtworkError)
  func getRecord(_ name: String) async throws(ArtworkError) -> [UInt8]?

  /// Nil when the storage can be written now; otherwise why not, in words for an operator.
  func readinessProblem() async -> String?

  /// The object's length and a producer of its bytes in order (nil after the last), or nil when
  /// not stored: serving reads through this, so a backend can stream without holding whole
  /// objects. Errors before the first byte are thrown here.
  func stream(_ key: ArtworkKey) async throws(ArtworkError) -> ObjectStream?

  /// Removes objects not requested for `olderThan`, and records not written for as long; at
  /// most `limit` removals per pass. Never throws: a failed pass is retried by the next one.
  func sweep(olderThan: Duration, limit: Int) async -> Int
}

/// A stored object being read: its length and its bytes, chunk by chunk.
public struct ObjectStream: Sendable {
  public var length: Int
  public var next: @Sendable () async throws -> [UInt8]?
  /// The whole object, when the first read already brought all of it: it can then be answered
  /// in one piece, without reading chunk by chunk.
  public var complete: [UInt8]?

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
