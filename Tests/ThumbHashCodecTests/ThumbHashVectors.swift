import Foundation
import Testing

/// The public reference vectors, in the repository beside this file (`Vectors/`, whose README
/// says where they came from), loaded once.
///
/// NOTE: located from this file's path rather than through TestSupport so this target needs no
/// extra dependency.
enum ThumbHashVectors {
  /// The vectors folder.
  static let directory: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().appendingPathComponent("Vectors")

  /// How many cases the copy in the repository holds: a test that finds fewer fails, so a
  /// vectors test can never pass by running none.
  static let expectedCounts = (
    robust: 67, tight: 3, fragile: 46, noise: 18, all: 134, decodeOnly: 40
  )

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

    /// The image's RGBA bytes, read from its PNG; the size must be the case's.
    func pixels() throws -> [UInt8] {
      let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
      let png = try PNGReader(bytes, inflate: ZlibInflate.whole)
      guard png.width == w, png.height == h else {
        throw PNGReader.Failure(description: "\(file) is \(png.width)x\(png.height), not \(w)x\(h)")
      }
      return png.rgba
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
