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

/// The answer of `POST /v1/thumbhash`, whatever the source (and the result remembered per URL).
struct ThumbHashAnswer: Codable, Sendable, Equatable {
  var thumbHash: String
  var averageColor: String
  var aspectRatio: Double
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

extension ThumbHashAnswer {
  /// A hosted image's hash, from the facts kept beside it (its own file is the source).
  init(_ facts: ImageFacts) {
    let stored = SourceFacts(
      format: facts.format, width: facts.width, height: facts.height, bytes: facts.bytes)
    self.init(
      thumbHash: facts.thumbHash, averageColor: facts.averageColor,
      aspectRatio: ArtworkApp.aspectRatio(stored), source: stored)
  }

  init(_ computed: ComputedThumbHash) {
    self.init(
      thumbHash: computed.thumbHash, averageColor: computed.averageColor,
      aspectRatio: computed.aspectRatio, source: SourceFacts(computed.source))
  }
}
