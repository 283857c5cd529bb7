import Foundation
import Imaging

/// What the service remembers about one source URL processed one way: the result (or a recent
/// failure) and the validators to revalidate it with. Persisted as JSON through the storage's
/// records, so it survives restarts and is shared by replicas.
struct SourceCacheRecord<Payload: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
  /// A recent failure, answered again until it expires.
  struct Failure: Codable, Sendable, Equatable {
    var kind: String
    var detail: String
  }

  static var currentVersion: Int { 1 }

  var version: Int
  var url: String
  var payload: Payload?
  var failure: Failure?
  var etag: String?
  var lastModified: String?
  /// When the origin last confirmed (or produced) this result, in seconds since 1970.
  var checkedAt: Double

  init(
    url: String, payload: Payload? = nil, failure: Failure? = nil, etag: String? = nil,
    lastModified: String? = nil, checkedAt: Double
  ) {
    self.version = Self.currentVersion
    self.url = url
    self.payload = payload
    self.failure = failure
    self.etag = etag
    self.lastModified = lastModified
    self.checkedAt = checkedAt
  }

  var json: [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // NOTE: encoding plain Codable structs of strings and numbers cannot fail.
    return (try? [UInt8](encoder.encode(self))) ?? []
  }

  /// Nil for bytes that are not a record of the current version (an old format is a miss).
  init?(json: [UInt8]) {
    guard let record = try? JSONDecoder().decode(Self.self, from: Data(json)),
      record.version == Self.currentVersion
    else { return nil }
    self = record
  }
}

/// The cached answer of `POST /v1/artwork` for a URL and options.
public struct CachedArtwork: Codable, Sendable, Equatable {
  var fileName: String
  var shape: String
  var format: String
  var width: Int
  var height: Int
  var bytes: Int
  var thumbHash: String
  var averageColor: String
  var source: CachedSource
}

/// The cached answer of `POST /v1/thumbhash` for a URL.
struct CachedThumbHash: Codable, Sendable, Equatable {
  var thumbHash: String
  var averageColor: String
  var aspectRatio: Double
  var source: CachedSource
}

/// Facts about a fetched source image.
struct CachedSource: Codable, Sendable, Equatable {
  var format: String
  var width: Int
  var height: Int
  var bytes: Int
}

extension CachedSource {
  init(_ info: SourceInfo) {
    self.init(
      format: info.format.rawValue, width: info.width, height: info.height, bytes: info.bytes)
  }
}

extension CachedArtwork {
  public init(_ created: CreatedArtwork, shape: Shape) {
    self.init(
      fileName: created.key.fileName, shape: shape.rawValue,
      format: created.rendered.format.rawValue, width: created.rendered.width,
      height: created.rendered.height, bytes: created.rendered.bytes.count,
      thumbHash: created.thumbHash, averageColor: created.averageColor,
      source: CachedSource(created.rendered.source))
  }
}

extension CachedThumbHash {
  init(_ computed: ComputedThumbHash) {
    self.init(
      thumbHash: computed.thumbHash, averageColor: computed.averageColor,
      aspectRatio: computed.aspectRatio, source: CachedSource(computed.source))
  }
}
