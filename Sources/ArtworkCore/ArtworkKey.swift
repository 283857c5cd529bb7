/// The name of one stored artwork object: `{id}.{ext}`.
public struct ArtworkKey: Sendable, Hashable, CustomStringConvertible {
  /// The content hash of the stored bytes.
  public let id: ArtworkID
  /// The stored format, which gives the file extension.
  public let format: StoredFormat

  /// An object never changes under its name (the name is its content hash): whoever serves it,
  /// the service or a bucket behind a CDN, may let it be cached for a year.
  public static let cacheControl = "public, max-age=31536000, immutable"

  /// The key of the object with `id` stored as `format`.
  public init(id: ArtworkID, format: StoredFormat) {
    self.id = id
    self.format = format
  }

  /// Parses `{64 hex}.{jpg|png}`; anything else is nil.
  public init?(fileName: String) {
    var name = fileName
    guard let key = name.withUTF8({ Self.parse(UnsafeRawBufferPointer($0)) }) else { return nil }
    self = key
  }

  /// `init(fileName:)` from the name's bytes: an image GET parses the request's own bytes,
  /// making no string.
  public init?(fileNameBytes bytes: ArraySlice<UInt8>) {
    guard let key = bytes.withUnsafeBytes(Self.parse) else { return nil }
    self = key
  }

  // NOTE: concrete buffers, not generic collections: a generic here is not specialised for
  // callers in other modules, and its unspecialised element reads allocate.
  private static func parse(_ bytes: UnsafeRawBufferPointer) -> ArtworkKey? {
    guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")),
      let id = ArtworkID(hexDigits: UnsafeRawBufferPointer(rebasing: bytes[..<dot])),
      let format = StoredFormat(
        fileExtensionBytes: UnsafeRawBufferPointer(rebasing: bytes[(dot + 1)...]))
    else { return nil }
    return ArtworkKey(id: id, format: format)
  }

  /// `{id}.{ext}`, as hosted under `/v1/images/`.
  public var fileName: String { "\(id.hex).\(format.fileExtension)" }
  public var description: String { fileName }
}
