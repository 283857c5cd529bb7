import Synchronization

/// A request id: the client's own when sane, otherwise generated (unique, random-looking).
///
/// Held inline, at most 64 bytes of `[A-Za-z0-9._-]`: every request has one, and most are only
/// ever copied into the answer's head, so no string is made unless someone asks for `text`.
struct RequestID: Sendable, CustomStringConvertible {
  /// The longest id accepted from a client.
  static let maxLength = 64

  private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
    (0, 0, 0, 0, 0, 0, 0, 0)
  private var length: UInt8 = 0

  /// The client's id when `incoming` is 1...64 bytes of `[A-Za-z0-9._-]`, else a generated one.
  static func accept(_ incoming: (some Collection<UInt8>)?) -> RequestID {
    if let incoming, isSane(incoming) {
      var id = RequestID()
      id.fill(count: incoming.count) { text in _ = text.initialize(from: incoming) }
      return id
    }
    return generate()
  }

  /// Whether `id` is safe to echo and log as is.
  static func isSane(_ id: some Collection<UInt8>) -> Bool {
    guard (1...maxLength).contains(id.count) else { return false }
    return id.allSatisfy { byte in
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
  static func generate() -> RequestID {
    let sequence = counter.wrappingAdd(1, ordering: .relaxed).oldValue
    var id = RequestID()
    id.fill(count: 32) { text in
      writeHex(scramble(sequence ^ keys.0), into: text, at: 0)
      writeHex(scramble(sequence ^ keys.1), into: text, at: 16)
    }
    return id
  }

  /// The id's bytes, for a body that copies them (into a head, a log line).
  func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    withUnsafeBytes(of: storage) { body(UnsafeRawBufferPointer(rebasing: $0[..<Int(length)])) }
  }

  /// The id as a string (made on each call).
  var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }
  var description: String { text }

  private mutating func fill(count: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
    withUnsafeMutableBytes(of: &storage) { raw in
      write(UnsafeMutableBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[..<count]))
    }
    length = UInt8(count)
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
