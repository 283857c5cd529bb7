import ArtworkCore
import Imaging
import ThumbHashCodec

/// What `ArtworkProcessor.render` made: the object to store and everything the answer reports.
public struct CreatedArtwork: Sendable {
  /// Where the rendered bytes are stored (their content hash, computed by the service itself).
  public var key: ArtworkKey
  /// The encoded image, at most 2,000,000 bytes, with no metadata.
  public var bytes: [UInt8]
  /// PNG when any pixel is not fully opaque, JPEG otherwise.
  public var format: StoredFormat
  /// The stored image's size in pixels.
  public var width: Int
  public var height: Int
  /// The source as it was read.
  public var source: SourceInfo
  /// How long each stage took in the worker.
  public var timings: StageTimings
  /// The ThumbHash of the stored image, base64.
  public var thumbHash: String
  /// The ThumbHash's average colour, `#rrggbb`.
  public var averageColor: String

  /// A worker's rendering, checked: the bytes are as many as it said and start as the format it
  /// named, and the ThumbHash decodes. The key is the SHA-256 of the bytes, computed here.
  init(_ facts: RenderFacts, bytes: [UInt8]) throws(ArtworkError) {
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
    format = facts.format
    width = facts.width
    height = facts.height
    source = facts.source
    timings = facts.timings
    thumbHash = summary.base64
    averageColor = summary.averageColor
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
