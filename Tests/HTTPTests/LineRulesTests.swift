import TestSupport
import Testing

@testable import HTTP

/// `LineRules.accept(_:_:chunked:)` takes runs of bytes at once: it must decide exactly as
/// feeding the same bytes one by one does, wherever the runs are cut.
@Suite struct LineRulesTests {
  /// The bytes the rules tell apart, and ordinary ones.
  static let alphabet: [UInt8] = Array("\r\n \t;0a9Fz:".utf8) + [0, 127]

  /// Each byte's verdict, one at a time, and the index of the first breach.
  static func oneByOne(_ bytes: [UInt8], chunked: Bool, messageEnds: Set<Int>) -> (
    Int?, ParseFailure?
  ) {
    var rules = LineRules()
    for (index, byte) in bytes.enumerated() {
      if messageEnds.contains(index) { rules.messageEnded() }
      if let breach = rules.accept(byte, chunked: chunked) { return (index, breach) }
    }
    return (nil, nil)
  }

  /// The same bytes in runs cut at `cuts`: the first breach.
  static func inRuns(_ bytes: [UInt8], chunked: Bool, cuts: [Int], messageEnds: Set<Int>)
    -> ParseFailure?
  {
    var rules = LineRules()
    let bounds = ([0] + cuts + [bytes.count]).sorted()
    return bytes.withUnsafeBytes { raw in
      for (start, end) in zip(bounds, bounds.dropFirst()) where start < end {
        if messageEnds.contains(start) { rules.messageEnded() }
        if let breach = rules.accept(raw, start..<end, chunked: chunked) { return breach }
      }
      return nil
    }
  }

  @Test func runsDecideAsSingleBytesDo() {
    var generator = SeededRandom()
    for _ in 0..<20_000 {
      let count = Int.random(in: 0...40, using: &generator)
      // Mostly plain bytes, as in a real head, with the special ones mixed in.
      let bytes = (0..<count).map { _ in
        Bool.random(using: &generator)
          ? UInt8(ascii: "x") : Self.alphabet.randomElement(using: &generator)!
      }
      let cuts = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
        Int.random(in: 0...count, using: &generator)
      }
      let chunked = Bool.random(using: &generator)
      // A message may end only where a run starts (the parser tells the rules between reads).
      let ends: Set<Int> = Bool.random(using: &generator) ? Set(cuts) : []
      let (at, expected) = Self.oneByOne(bytes, chunked: chunked, messageEnds: ends)
      let got = Self.inRuns(bytes, chunked: chunked, cuts: cuts, messageEnds: ends)
      #expect(
        got == expected,
        "bytes \(bytes) cut at \(cuts), chunked \(chunked), breach at \(at ?? -1); \(SeededRandom.replay)"
      )
    }
  }

  @Test func aFoldedLineAfterALongPlainRunIsStillRefused() {
    let head = Array("GET / HTTP/1.1\r\nHost: example.org\r\n folded\r\n\r\n".utf8)
    var rules = LineRules()
    let breach = head.withUnsafeBytes { rules.accept($0, 0..<head.count, chunked: false) }
    #expect(breach == .foldedLine)
  }

  @Test func aBareCRInsideAPlainRunIsRefused() {
    let head = Array("GET / HTTP/1.1\r\nHost: exa\rmple.org\r\n\r\n".utf8)
    var rules = LineRules()
    let breach = head.withUnsafeBytes { rules.accept($0, 0..<head.count, chunked: false) }
    #expect(breach == .lineEnding)
  }
}
