/// The stored file formats.
public enum StoredFormat: String, Sendable, Hashable, CaseIterable {
  case jpeg, png

  /// The file extension of hosted URLs: `jpg` or `png`.
  public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
  /// The media type the object is served with.
  public var contentType: String { self == .jpeg ? "image/jpeg" : "image/png" }

  // NOTE: hashed as its case, not as its raw value: a type with a raw value is otherwise hashed
  // by making and hashing that string, and a key holding a format is looked up on every GET.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self == .jpeg ? 0 : 1)
  }

  /// `init(fileExtension:)` from the extension's bytes.
  public init?(fileExtensionBytes bytes: UnsafeRawBufferPointer) {
    guard bytes.count == 3 else { return nil }
    switch (bytes[0], bytes[1], bytes[2]) {
    case (UInt8(ascii: "j"), UInt8(ascii: "p"), UInt8(ascii: "g")): self = .jpeg
    case (UInt8(ascii: "p"), UInt8(ascii: "n"), UInt8(ascii: "g")): self = .png
    default: return nil
    }
  }
}
