/// The stored file formats.
public enum StoredFormat: String, Sendable, Hashable, CaseIterable {
  case jpeg, png

  /// The file extension of hosted URLs: `jpg` or `png`.
  public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
  /// The media type the object is served with.
  public var contentType: String { self == .jpeg ? "image/jpeg" : "image/png" }

  /// The format a hosted file name ends with; nil for any other extension.
  public init?(fileExtension: String) {
    var text = fileExtension
    guard let format = text.withUTF8({ Self(fileExtensionBytes: UnsafeRawBufferPointer($0)) })
    else { return nil }
    self = format
  }

  /// `init(fileExtension:)` from the extension's bytes.
  public init?(fileExtensionBytes bytes: UnsafeRawBufferPointer) {
    if bytes.elementsEqual("jpg".utf8) {
      self = .jpeg
    } else if bytes.elementsEqual("png".utf8) {
      self = .png
    } else {
      return nil
    }
  }
}
