import TestSupport
import Testing

@testable import ArtworkCore

/// A JPEG's frame size and scans, read from its markers alone: every scan counted once,
/// whatever the segments and the entropy-coded data hold, and no input traps.
@Suite struct JPEGScansTests {
  static func scans(_ bytes: [UInt8]) -> JPEGScans? {
    bytes.withUnsafeBytes { JPEGScans.read($0) }
  }

  static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
  }

  @Test func realJPEGsAreReadFromTheirMarkers() throws {
    #expect(
      Self.scans(Fixtures.bytes("coffee.jpg"))
        == JPEGScans(width: 600, height: 400, isProgressive: false, count: 1))
    // libjpeg's progression for a colour picture: 10 scans.
    #expect(
      Self.scans(Fixtures.bytes("progressive.jpg"))
        == JPEGScans(width: 451, height: 300, isProgressive: true, count: 10))
    for name in ["rocket.jpg", "grey.jpg", "cmyk-icc.jpg", "orientation-6.jpg", "photo-large.jpg"] {
      let read = try #require(Self.scans(Fixtures.bytes(name)), "\(name)")
      #expect(read.count == 1 && !read.isProgressive && read.width > 0, "\(name): \(read)")
    }
  }

  @Test(arguments: [1, 2, 15, 101, 883])
  func eachScanOfAProgressionIsCounted(count: Int) {
    #expect(
      Self.scans(ProgressiveJPEG.grey(width: 64, height: 48, scans: count))
        == JPEGScans(width: 64, height: 48, isProgressive: true, count: count))
  }

  /// A whole JPEG inside an APP1 (an EXIF thumbnail) is skipped with its segment, and so are
  /// stuffed bytes, restart markers and fill bytes in a scan's data; nothing after the end of
  /// image counts.
  @Test func onlyTheFramesOwnScansAreCounted() {
    let inner = ProgressiveJPEG.grey(width: 16, height: 16, scans: 20)
    let outer = ProgressiveJPEG.grey(width: 64, height: 64, scans: 3)
    let nested = Array(outer[0..<2]) + Self.segment(0xE1, inner) + Array(outer[2...])
    #expect(
      Self.scans(nested) == JPEGScans(width: 64, height: 64, isProgressive: true, count: 3))
    let scanHeader: [UInt8] = [1, 1, 0x00, 0, 63, 0]
    let file: [UInt8] =
      [0xFF, 0xD8] + Self.segment(0xC0, [8, 0, 8, 0, 16, 1, 1, 0x11, 0])
      + Self.segment(0xDA, scanHeader) + [0x12, 0xFF, 0x00, 0xDA, 0xFF, 0xD0, 0x34]
      + [0xFF, 0xFF, 0xD7, 0x56, 0xFF, 0x00]
      + Self.segment(0xDA, scanHeader) + [0x78, 0x9A]
      + [0xFF, 0xFF, 0xD9] + Self.segment(0xDA, scanHeader)
    #expect(Self.scans(file) == JPEGScans(width: 16, height: 8, isProgressive: false, count: 2))
  }

  @Test func otherDataIsNoJPEG() {
    #expect(Self.scans(Fixtures.bytes("chelsea.png")) == nil)
    #expect(Self.scans([]) == nil && Self.scans([0xFF]) == nil)
    #expect(Self.scans([0xFF, 0xD8]) == JPEGScans())
  }

  /// Cut anywhere, or with bytes changed at random, a JPEG reads without a trap, and never
  /// counts more scans than it has start-of-scan markers.
  @Test func cutOrMutatedDataNeverTraps() {
    var random = SeededRandom()
    let sources = [
      ProgressiveJPEG.grey(width: 40, height: 24, scans: 30), Fixtures.bytes("progressive.jpg"),
      Fixtures.bytes("coffee.jpg"),
    ]
    for source in sources {
      let most = Self.markers(source)
      for cut in stride(from: 0, through: source.count, by: max(1, source.count / 97)) {
        let read = Self.scans(Array(source[0..<cut]))
        #expect(read == nil || read!.count <= most, "cut \(cut)")
      }
      for _ in 0..<100 {
        var bytes = source
        for _ in 0..<Int.random(in: 1...8, using: &random) {
          let at = Int.random(in: 0..<bytes.count, using: &random)
          bytes[at] = [0xFF, 0xDA, 0x00, 0xD9, UInt8.random(in: 0...255, using: &random)]
            .randomElement(using: &random)!
        }
        let read = Self.scans(bytes)
        #expect(read == nil || read!.count <= Self.markers(bytes), "\(SeededRandom.replay)")
      }
    }
  }

  /// The 0xFF 0xDA pairs in `bytes`: no count can pass it.
  static func markers(_ bytes: [UInt8]) -> Int {
    var count = 0
    for index in bytes.indices.dropLast() where bytes[index] == 0xFF && bytes[index + 1] == 0xDA {
      count += 1
    }
    return count
  }
}
