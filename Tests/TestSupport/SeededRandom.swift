import Foundation

/// Random inputs that a failure can replay: SplitMix64, whose whole run follows from its seed.
/// The seed of a test run is `ARTWORK_TEST_SEED` when set, else a new one; a test that draws from
/// it names `SeededRandom.replay` in its failure messages.
public struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  /// This run's seed.
  public static let seed: UInt64 =
    ProcessInfo.processInfo.environment["ARTWORK_TEST_SEED"].flatMap { UInt64($0) }
    ?? UInt64.random(in: 0...UInt64.max)

  /// What a failure message says to run the same inputs again.
  public static var replay: String { "replay with ARTWORK_TEST_SEED=\(seed)" }

  /// A generator starting from `seed` (this run's by default).
  public init(seed: UInt64 = SeededRandom.seed) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
