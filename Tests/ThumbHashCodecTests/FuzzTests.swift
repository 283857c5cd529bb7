import Testing

@testable import ThumbHashCodec

/// At least 200,000 random and mutated byte strings through the decoder, deterministically.
///
/// Each string either decodes to a sane image (with average colour and aspect ratio agreeing)
/// or is refused with the same typed error by all three entry points. A trap fails the run.
@Suite struct FuzzTests {
  static let batches = 8
  static let perBatch = 25_000

  /// Valid seeds to mutate: every public vector hash.
  static let seeds: [[UInt8]] = {
    let strings =
      ThumbHashVectors.all.map(\.hashBase64) + ThumbHashVectors.decodeOnly.map(\.hashBase64)
    let decoded = strings.compactMap { try? ThumbHashBase64.decode($0) }
    return decoded.isEmpty ? [try! ThumbHashBase64.decode("YSgGGwxMX5H65zV3n49W2Ag=")] : decoded
  }()

  @Test(arguments: 0..<batches)
  func randomAndMutatedHashesNeverTrap(batch: Int) {
    var rng = SplitMix64(seed: 0x7468_756d_6268_6173 &+ UInt64(batch))
    var decoded = 0
    for index in 0..<Self.perBatch {
      let input = index % 2 == 0 ? Self.randomBytes(&rng) : Self.mutated(&rng)
      switch Self.check(input) {
      case .success(let accepted): if accepted { decoded += 1 }
      case .failure(let problem): Issue.record("\(problem) for \(input)")
      }
    }
    // Both outcomes must be well represented, or the test is not exercising the decoder.
    #expect(decoded > Self.perBatch / 10)
    #expect(decoded < Self.perBatch * 9 / 10)
  }

  @Test func randomStringsThroughBase64NeverTrap() {
    var rng = SplitMix64(seed: 64)
    let characters = Array("ABCxyz019+/-_=! \n\u{e9}".unicodeScalars)
    var accepted = 0
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...36, using: &rng)
      var string = ""
      for _ in 0..<length { string.unicodeScalars.append(characters.randomElement(using: &rng)!) }
      if let bytes = try? ThumbHashBase64.decode(string) {
        accepted += 1
        if bytes.count > length * 3 / 4 { Issue.record("\(string) gave \(bytes.count) bytes") }
      }
    }
    #expect(accepted > 0)
  }

  /// A decoder inconsistency found by `check`.
  struct Problem: Error, CustomStringConvertible {
    let description: String
  }

  /// Decodes `input` through every entry point: `.success(true)` if it was accepted and the
  /// results are sane, `.success(false)` if all three refused it with the same error.
  ///
  /// NOTE: plain comparisons rather than `#expect` here; the fuzz loop runs 200,000 times
  /// and recording only failures keeps it fast in debug builds.
  static func check(_ input: [UInt8]) -> Result<Bool, Problem> {
    do {
      let image = try ThumbHash.decode(input)
      let color = try ThumbHash.averageColor(input)
      let ratio = try ThumbHash.approximateAspectRatio(input)
      guard (1...32).contains(image.width), (1...32).contains(image.height),
        image.rgba.count == image.width * image.height * 4
      else { return .failure(Problem(description: "bad image size")) }
      guard [color.red, color.green, color.blue, color.alpha].allSatisfy({ (0...1).contains($0) })
      else { return .failure(Problem(description: "average colour out of range")) }
      guard ratio >= 1.0 / 7.0 && ratio <= 7 else {
        return .failure(Problem(description: "aspect ratio \(ratio)"))
      }
      return .success(true)
    } catch {
      do {
        _ = try ThumbHash.averageColor(input)
        return .failure(Problem(description: "averageColor accepted what decode refused"))
      } catch let other {
        guard other == error else { return .failure(Problem(description: "different errors")) }
      }
      do {
        _ = try ThumbHash.approximateAspectRatio(input)
        return .failure(Problem(description: "aspect ratio accepted what decode refused"))
      } catch let other {
        guard other == error else { return .failure(Problem(description: "different errors")) }
      }
      return .success(false)
    }
  }

  /// Uniformly random bytes, 0...32 long.
  static func randomBytes(_ rng: inout SplitMix64) -> [UInt8] {
    let length = Int.random(in: 0...32, using: &rng)
    return (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
  }

  /// A valid hash with one to three random edits: bit flips, byte changes, truncation,
  /// extension, insertion, deletion, or forced header bits.
  static func mutated(_ rng: inout SplitMix64) -> [UInt8] {
    var hash = seeds.randomElement(using: &rng)!
    for _ in 0..<Int.random(in: 1...3, using: &rng) {
      switch Int.random(in: 0..<7, using: &rng) {
      case 0 where !hash.isEmpty:
        hash[Int.random(in: 0..<hash.count, using: &rng)] ^=
          1 << UInt8.random(in: 0..<8, using: &rng)
      case 1 where !hash.isEmpty:
        hash[Int.random(in: 0..<hash.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
      case 2:
        hash = Array(hash.prefix(Int.random(in: 0...hash.count, using: &rng)))
      case 3:
        hash += (0..<Int.random(in: 1...8, using: &rng)).map { _ in
          UInt8.random(in: 0...255, using: &rng)
        }
      case 4:
        hash.insert(
          UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...hash.count, using: &rng))
      case 5 where !hash.isEmpty:
        hash.remove(at: Int.random(in: 0..<hash.count, using: &rng))
      default:
        if hash.count > 4 {
          hash[2] ^= 0x80  // alpha flag
          hash[3] = (hash[3] & ~7) | UInt8.random(in: 0...7, using: &rng)
          hash[4] ^= UInt8.random(in: 0...1, using: &rng) << 7  // landscape flag
        }
      }
    }
    return hash
  }
}
