import ArtworkCore
import ImageWorkers

/// The answer of `POST /v1/artwork`, whatever the source (and the result remembered per URL).
public struct ArtworkAnswer: Codable, Sendable, Equatable {
  var fileName: String
  var shape: String
  var format: String
  var width: Int
  var height: Int
  var bytes: Int
  var thumbHash: String
  var averageColor: String
  var source: SourceFacts
}

/// Facts about the source image of an answer.
struct SourceFacts: Codable, Sendable, Equatable {
  var format: String
  var width: Int
  var height: Int
  var bytes: Int
}

extension SourceFacts {
  init(_ info: SourceInfo) {
    self.init(
      format: info.format.rawValue, width: info.width, height: info.height, bytes: info.bytes)
  }
}

extension ArtworkAnswer {
  /// The answer for artwork just created for `shape`.
  public init(_ created: CreatedArtwork, shape: Shape) {
    self.init(
      fileName: created.key.fileName, shape: shape.rawValue,
      format: created.format.rawValue, width: created.width,
      height: created.height, bytes: created.bytes.count,
      thumbHash: created.thumbHash, averageColor: created.averageColor,
      source: SourceFacts(created.source))
  }
}
