import ArtworkCore
import WorkerHost

/// The answer of `POST /v1/thumbhash`, whatever the source (and the result remembered per URL).
struct ThumbHashAnswer: Codable, Sendable, Equatable {
  var thumbHash: String
  var averageColor: String
  var aspectRatio: Double
  var source: SourceFacts
}

extension ThumbHashAnswer {
  /// A hosted image's hash, from the facts kept beside it (its own file is the source).
  init(_ facts: ImageFacts) {
    let stored = SourceFacts(
      format: facts.format, width: facts.width, height: facts.height, bytes: facts.bytes)
    self.init(
      thumbHash: facts.thumbHash, averageColor: facts.averageColor,
      aspectRatio: AnswerJSON.aspectRatio(stored), source: stored)
  }

  init(_ computed: ComputedThumbHash) {
    self.init(
      thumbHash: computed.thumbHash, averageColor: computed.averageColor,
      aspectRatio: computed.aspectRatio, source: SourceFacts(computed.source))
  }
}
