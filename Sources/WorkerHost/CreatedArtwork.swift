import ArtworkCore
import ThumbHashCodec
import WorkerProtocol

/// What `ArtworkProcessor.render` made: the object to store and the record every answer about
/// it reports (its members read through this value: `created.width`).
@dynamicMemberLookup
public struct CreatedArtwork: Sendable {
  /// Where the rendered bytes are stored (their content hash, computed by the service itself).
  public var key: ArtworkKey
  /// The encoded image, at most 2,000,000 bytes, with no metadata (PNG when any pixel is not
  /// fully opaque, JPEG otherwise).
  public var bytes: [UInt8]
  /// The stored image as the answers report it.
  public var record: ImageRecord
  /// The source as it was read.
  public var source: SourceInfo
  /// How long each stage took in the worker.
  public var timings: StageTimings

  public subscript<Value>(dynamicMember member: KeyPath<ImageRecord, Value>) -> Value {
    record[keyPath: member]
  }

  /// A worker's rendering for `shape`, checked: the bytes are as many as it said and start as
  /// the format it named, and the ThumbHash decodes. The key is the SHA-256 of the bytes,
  /// computed here.
  package init(_ facts: RenderFacts, bytes: [UInt8], shape: Shape) throws(ArtworkError) {
    let looksRight =
      switch facts.format {
      case .jpeg: bytes.starts(with: [0xFF, 0xD8, 0xFF])
      case .png: bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
      }
    guard bytes.count == facts.outputCount, looksRight, facts.width > 0, facts.height > 0 else {
      throw ArtworkError(
        .internal, "The image could not be framed.",
        internalDetail: "a worker's rendering did not check out (\(bytes.count) bytes, "
          + "\(facts.outputCount) said, \(facts.format))")
    }
    let summary = try ThumbHashSummary(facts.hash)
    key = ArtworkKey(id: ArtworkID(hex: SHA256.hex(bytes))!, format: facts.format)
    self.bytes = bytes
    record = ImageRecord(
      fileName: key.fileName, shape: shape.rawValue, format: facts.format.rawValue,
      width: facts.width, height: facts.height, bytes: bytes.count,
      thumbHash: summary.base64, averageColor: summary.averageColor)
    source = facts.source
    timings = facts.timings
  }
}

/// What `ArtworkProcessor.thumbHash` computed, storing nothing.
public struct ComputedThumbHash: Sendable {
  /// Facts about the source image.
  public var source: SourceInfo
  /// The ThumbHash, base64.
  public var thumbHash: String
  /// The ThumbHash's average colour, `#rrggbb`.
  public var averageColor: String
  /// The aspect ratio the ThumbHash records.
  public var aspectRatio: Double
}

/// A ThumbHash a worker computed, as the service reports it; it must decode, or the worker is
/// not believed.
struct ThumbHashSummary {
  var base64: String
  var averageColor: String
  var aspectRatio: Double

  init(_ hash: [UInt8]) throws(ArtworkError) {
    do {
      let average = try ThumbHash.averageColor(hash)
      aspectRatio = try ThumbHash.approximateAspectRatio(hash)
      _ = try ThumbHash.decode(hash)
      base64 = ThumbHashBase64.encode(hash)
      averageColor = Self.hexColor(average)
    } catch {
      throw ArtworkError(
        .internal, "The ThumbHash could not be computed.", internalDetail: "\(error)")
    }
  }

  /// `#rrggbb` for a ThumbHash average colour (channels 0...1).
  static func hexColor(_ color: ThumbHashColor) -> String {
    "#"
      + lowercaseHex(
        [color.red, color.green, color.blue].map { UInt8((min(max($0, 0), 1) * 255).rounded()) })
  }
}
