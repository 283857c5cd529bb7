/// The stored file formats.
public enum StoredFormat: String, Sendable, Hashable, CaseIterable {
  case jpeg, png

  /// The file extension of hosted URLs: `jpg` or `png`.
  public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
  /// The media type the object is served with.
  public var contentType: String { self == .jpeg ? "image/jpeg" : "image/png" }

  /// The format a hosted file name ends with; nil for any other extension.
  public init?(fileExtension: String) {
    switch fileExtension {
    case "jpg": self = .jpeg
    case "png": self = .png
    default: return nil
    }
  }
}
