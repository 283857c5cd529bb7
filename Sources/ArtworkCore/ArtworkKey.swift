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
    // By bytes: this runs on every image GET, and splitting a String walks Characters.
    let bytes = fileName.utf8
    guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")),
      let id = ArtworkID(hex: String(fileName[..<dot])),
      let format = StoredFormat(fileExtension: String(fileName[bytes.index(after: dot)...]))
    else { return nil }
    self.init(id: id, format: format)
  }

  /// `{id}.{ext}`, as hosted under `/v1/images/`.
  public var fileName: String { "\(id.hex).\(format.fileExtension)" }
  public var description: String { fileName }
}
