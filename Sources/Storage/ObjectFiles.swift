import ArtworkCore

/// A backend whose objects are files on this machine: an object can be answered from its own
/// file (`sendfile` from the page cache) instead of being read into memory first.
public protocol ObjectFiles: Sendable {
  /// The object under `key` opened for reading, nil when it is not stored; refreshes its
  /// retention mark as a read does.
  func openObject(_ key: ArtworkKey) async throws(ArtworkError) -> OpenedObject?
}

/// A stored object's file, open. The receiver owns `descriptor` and closes it. Objects are
/// never rewritten in place (a new one is linked into place whole), so the file holds the
/// object's `length` bytes for as long as it stays open, deleted or not.
public struct OpenedObject: Sendable {
  public let descriptor: Int32
  public let length: Int
}
