import ArtworkCore
import WorkerHost

/// The answer of `POST /v1/artwork`, whatever the source (and the result remembered per URL):
/// the image's record and the source it was made from. Coded flat, as one object (the stored
/// results' format).
@dynamicMemberLookup
public struct ArtworkAnswer: Codable, Sendable, Equatable {
  var image: ImageRecord
  var source: SourceFacts

  public subscript<Value>(dynamicMember member: KeyPath<ImageRecord, Value>) -> Value {
    image[keyPath: member]
  }

  /// The answer for artwork just created.
  public init(_ created: CreatedArtwork) {
    image = created.record
    source = SourceFacts(created.source)
  }

  private enum CodingKeys: String, CodingKey { case source }

  public init(from decoder: any Decoder) throws {
    image = try ImageRecord(from: decoder)
    source = try decoder.container(keyedBy: CodingKeys.self).decode(
      SourceFacts.self, forKey: .source)
  }

  public func encode(to encoder: any Encoder) throws {
    try image.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(source, forKey: .source)
  }
}
