import ArtworkCore
import Synchronization

/// An object read back from storage.
public struct StoredObject: Sendable {
  public var key: ArtworkKey
  public var bytes: [UInt8]
}
