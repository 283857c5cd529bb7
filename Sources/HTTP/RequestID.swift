import Synchronization

/// Request ids: the client's own when sane, otherwise generated (unique, random-looking).
enum RequestID {
  /// `incoming` when it is 1...64 characters of `[A-Za-z0-9._-]`, else a fresh generated id.
  static func accept(_ incoming: String?) -> String {
    if let incoming, isSane(incoming) { return incoming }
    return generate()
  }

  /// Whether `id` is safe to echo and log as is.
  static func isSane(_ id: String) -> Bool {
    let bytes = id.utf8
    guard (1...64).contains(bytes.count) else { return false }
    return bytes.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "-"):
        true
      default: false
      }
    }
  }

  /// 32 lowercase hex digits: a per-process counter run through two keyed bijections, so ids
  /// never repeat within a process, differ between processes, and vary from the first digit (a
  /// prefix of an id is as good as the whole when searching logs). One random draw per process:
  /// reading the kernel's generator for every request cost a system call each.
  static func generate() -> String {
    let sequence = counter.wrappingAdd(1, ordering: .relaxed).oldValue
    // Written straight into the string's storage: one allocation per request.
    return String(unsafeUninitializedCapacity: 32) { text in
      writeHex(scramble(sequence ^ keys.0), into: text, at: 0)
      writeHex(scramble(sequence ^ keys.1), into: text, at: 16)
      return 32
    }
  }

  private static let keys: (UInt64, UInt64) = {
    var generator = SystemRandomNumberGenerator()
    return (generator.next(), generator.next())
  }()
  private static let counter = Atomic<UInt64>(0)

  /// SplitMix64's finaliser: a bijection of UInt64 that spreads every input bit.
  private static func scramble(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The 16 hex digits of `value`, lowest nibble first, into `text` from `offset`.
  private static func writeHex(
    _ value: UInt64, into text: UnsafeMutableBufferPointer<UInt8>, at offset: Int
  ) {
    let digits: StaticString = "0123456789abcdef"
    var word = value
    for index in offset..<offset + 16 {
      text[index] = digits.utf8Start[Int(word & 0xF)]
      word >>= 4
    }
  }
}
