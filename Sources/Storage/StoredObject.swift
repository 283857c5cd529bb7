import ArtworkCore
import Synchronization

/// An object read back from storage.
public struct StoredObject: Sendable {
  /// The object key.
  public var key: ArtworkKey
  /// The stored bytes.
  public var bytes: [UInt8]
}
