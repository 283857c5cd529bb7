import Foundation
import Testing

/// The public reference vectors (`../shared/thumbhash-vectors` beside the repository), loaded once.
///
/// NOTE: located from this file's path rather than through TestSupport so this target needs no
/// extra dependency; the layout is the same as `Repository.shared`.
enum ThumbHashVectors {
  /// The vectors folder.
  static let directory: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/thumbhash-vectors")

  /// The reference's decode results for one hash.
  struct Decoded: Decodable, Sendable {
    let w: Int
    let h: Int
    let sha256: String
  }

  /// One image and its reference hash.
  struct Case: Decodable, Sendable, CustomTestStringConvertible {
    let id: String
    let w: Int
    let h: Int
    let file: String
    let tier: String
    let hashBase64: String
    let averageRGBA: [Double]
    let aspect: Double
    let decoded: Decoded

    enum CodingKeys: String, CodingKey {
      case id, w, h, file, tier, aspect, decoded
      case hashBase64 = "hash_b64"
      case averageRGBA = "avg_rgba"
    }

    var testDescription: String { id }

    /// The image's RGBA bytes.
    func pixels() throws -> [UInt8] {
      [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
    }
  }

  /// A well-formed hash with its reference decode results.
  struct DecodeCase: Decodable, Sendable, CustomTestStringConvertible {
    let id: String
    let hashBase64: String
    let averageRGBA: [Double]
    let aspect: Double
    let decoded: Decoded

    enum CodingKeys: String, CodingKey {
      case id, aspect, decoded
      case hashBase64 = "hash_b64"
      case averageRGBA = "avg_rgba"
    }

    var testDescription: String { id }
  }

  private struct File: Decodable {
    let cases: [Case]
    let decodeOnly: [DecodeCase]

    enum CodingKeys: String, CodingKey {
      case cases
      case decodeOnly = "decode_only"
    }
  }

  private static let file: File? = {
    guard let data = try? Data(contentsOf: directory.appendingPathComponent("vectors.json")) else {
      return nil
    }
    return try? JSONDecoder().decode(File.self, from: data)
  }()

  /// Whether vectors.json was found and parsed.
  static var loaded: Bool { file != nil }

  /// Every encode case.
  static var all: [Case] { file?.cases ?? [] }

  /// The encode cases of one tier (robust, tight, fragile, noise).
  static func cases(tier: String) -> [Case] {
    all.filter { $0.tier == tier }
  }

  /// The decode-only cases.
  static var decodeOnly: [DecodeCase] { file?.decodeOnly ?? [] }
}
