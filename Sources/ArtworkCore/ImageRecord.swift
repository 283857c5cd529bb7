/// One hosted image as every answer about it reports it. Written once, where the image is made
/// (`CreatedArtwork`) or worked out from its stored bytes (`ImageFacts`); the answers are views
/// that add what they know besides (`ArtworkAnswer`: the source; `ImageFacts`: when and from
/// what URL), and read its members through it. Its coding keys are those of the stored results
/// and facts records.
public struct ImageRecord: Codable, Sendable, Equatable {
  /// `{id}.{ext}`: where the object is stored, and the last segment of its hosted URL.
  public var fileName: String
  /// `square`, `poster` or `circle`.
  public var shape: String
  /// `jpeg` or `png`.
  public var format: String
  /// The stored image's size in pixels.
  public var width: Int
  public var height: Int
  /// The stored object's size.
  public var bytes: Int
  /// The ThumbHash of the stored image, base64.
  public var thumbHash: String
  /// The ThumbHash's average colour, `#rrggbb`.
  public var averageColor: String

  public init(
    fileName: String, shape: String, format: String, width: Int, height: Int, bytes: Int,
    thumbHash: String, averageColor: String
  ) {
    self.fileName = fileName
    self.shape = shape
    self.format = format
    self.width = width
    self.height = height
    self.bytes = bytes
    self.thumbHash = thumbHash
    self.averageColor = averageColor
  }
}

/// Facts about the source image an answer was made from.
public struct SourceFacts: Codable, Sendable, Equatable {
  public var format: String
  public var width: Int
  public var height: Int
  public var bytes: Int

  public init(format: String, width: Int, height: Int, bytes: Int) {
    self.format = format
    self.width = width
    self.height = height
    self.bytes = bytes
  }

  public init(_ info: SourceInfo) {
    self.init(
      format: info.format.rawValue, width: info.width, height: info.height, bytes: info.bytes)
  }
}
