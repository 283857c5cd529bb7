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
