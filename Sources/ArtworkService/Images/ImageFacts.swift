import ArtworkCore
import Foundation
import WorkerHost

/// The facts of one hosted image, as `GET /v1/images/{id}.json` answers them: stored as a
/// record beside the object when it is created (before its 201 is answered), or, for an image
/// stored before facts were kept, worked out from its bytes once and then stored.
@dynamicMemberLookup
struct ImageFacts: StoredRecord, Sendable, Equatable {
  static var currentVersion: Int { 1 }

  var version: Int = Self.currentVersion
  /// The image; its shape worked out from the size and format when the facts were made from
  /// the bytes (`inferred`).
  var image: ImageRecord
  /// When the image was created, seconds since 1970; nil when it was stored before facts were
  /// kept.
  var createdAt: Double?
  /// The URL it was made from, its secret parameters redacted; nil for an upload.
  var sourceURL: String?
  /// The source as it was read, when known.
  var source: SourceFacts?
  /// True when the facts were worked out from the stored bytes, not kept at creation.
  var inferred: Bool?
  /// The callers that hold the image (`ImageOwners`): the names of the tokens that created it
  /// or were answered it since, never the tokens. Nil for an image stored before owners were
  /// kept. Not published.
  var owners: [String]?
  /// Every shape the image was made as (the same bytes can be a `square` and a `circle`); nil
  /// when only `image.shape`. The first creation's shape and time are never rewritten.
  var shapes: [String]?

  subscript<Value>(dynamicMember member: KeyPath<ImageRecord, Value>) -> Value {
    image[keyPath: member]
  }

  /// The record name of `id`'s facts (one id is one object, whatever its extension).
  static func recordName(_ id: ArtworkID) -> String { "image-facts/\(id.hex)" }

  /// The facts of an image just created from `sourceURL` (already redacted), held by `owner`
  /// (nil: by nobody yet; the callers answered it claim it).
  init(_ answer: ArtworkAnswer, createdAt: Double, sourceURL: String?, owner: String?) {
    image = answer.image
    self.createdAt = createdAt
    self.sourceURL = sourceURL
    source = answer.source
    owners = owner.map { [$0] } ?? []
  }

  /// Every shape made of the image, the first one first.
  var allShapes: [String] { shapes ?? [image.shape] }

  /// Facts worked out from a stored object's bytes: its ThumbHash (`computed` from the bytes in
  /// a worker, as `POST /v1/artwork` computes it) and its size; the shape inferred (a circle is
  /// always a square PNG, a poster never square).
  init(_ key: ArtworkKey, computed: ComputedThumbHash) {
    let stored = computed.source
    let square = stored.width == stored.height
    image = ImageRecord(
      fileName: key.fileName,
      shape: square ? (key.format == .png ? "circle" : "square") : "poster",
      format: key.format.rawValue, width: stored.width, height: stored.height,
      bytes: stored.bytes, thumbHash: computed.thumbHash, averageColor: computed.averageColor)
    inferred = true
  }

  // Coded flat, as one object: the image's members beside these (the stored facts' format).
  private enum CodingKeys: String, CodingKey {
    case version, createdAt, sourceURL, source, inferred, owners, shapes
  }

  init(from decoder: any Decoder) throws {
    image = try ImageRecord(from: decoder)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    createdAt = try container.decodeIfPresent(Double.self, forKey: .createdAt)
    sourceURL = try container.decodeIfPresent(String.self, forKey: .sourceURL)
    source = try container.decodeIfPresent(SourceFacts.self, forKey: .source)
    inferred = try container.decodeIfPresent(Bool.self, forKey: .inferred)
    owners = try container.decodeIfPresent([String].self, forKey: .owners)
    shapes = try container.decodeIfPresent([String].self, forKey: .shapes)
  }

  func encode(to encoder: any Encoder) throws {
    try image.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(version, forKey: .version)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(sourceURL, forKey: .sourceURL)
    try container.encodeIfPresent(source, forKey: .source)
    try container.encodeIfPresent(inferred, forKey: .inferred)
    try container.encodeIfPresent(owners, forKey: .owners)
    try container.encodeIfPresent(shapes, forKey: .shapes)
  }

  /// RFC 3339 in UTC, to the second (`2026-12-02T04:25:05Z`).
  /// A time from storage outside 1970...9999 (a damaged record) is clamped into it.
  static func timestamp(_ seconds: Double) -> String {
    let clamped = seconds.isFinite ? min(max(seconds, 0), 253_402_300_799) : 0
    return Date(timeIntervalSince1970: clamped.rounded(.down)).formatted(.iso8601)
  }
}
