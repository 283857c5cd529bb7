/// What a HEIF file (HEIC, AVIF: ISO base media boxes) says of its pictures, read from its boxes
/// before any decoder sees it: whether it holds still images (a `meta` box) or a sequence (a
/// `moov` box), and how its primary image is coded (the item type its `pitm` and `infe` boxes
/// name: `hvc1`, `av01`, `grid`..., and for a derived image, the types of the items it is made
/// from). What tells a variant libheif does not read
/// (`UnsupportedVariant`) from one it does.
///
/// Boxes are followed by their sizes, within the data and within their parents; a size that
/// does not fit ends the walk of that level. Nothing here traps on a value read from the data.
public struct HEIFStructure: Sendable, Equatable {
  /// Whether the file has a `meta` box at its top level.
  public var hasMeta = false
  /// Whether the file has a `moov` box at its top level (an image sequence, or a video).
  public var hasMovie = false
  /// The primary image's item type, when the `meta` box names it.
  public var primaryItemType: String?
  /// The types of the items the primary image is derived from (`dimg` references: a grid's
  /// tiles, an overlay's layers), which are what is decoded.
  public var derivedFrom: [String] = []

  public init(
    hasMeta: Bool = false, hasMovie: Bool = false, primaryItemType: String? = nil,
    derivedFrom: [String] = []
  ) {
    self.hasMeta = hasMeta
    self.hasMovie = hasMovie
    self.primaryItemType = primaryItemType
    self.derivedFrom = derivedFrom
  }

  /// The structure of the file in `bytes`; nil when it does not start with an `ftyp` box.
  public static func read(_ bytes: UnsafeRawBufferPointer) -> HEIFStructure? {
    let top = boxes(bytes, in: 0..<bytes.count)
    guard top.first?.type == "ftyp" else { return nil }
    var structure = HEIFStructure()
    for box in top {
      switch box.type {
      case "moov": structure.hasMovie = true
      case "meta" where !structure.hasMeta:
        structure.hasMeta = true
        let primary = primaryItem(bytes, meta: box.payload)
        structure.primaryItemType = primary?.type
        structure.derivedFrom = primary?.derivedFrom ?? []
      default: break
      }
    }
    return structure
  }

  /// A box: its four-character type and the range of its payload.
  struct Box {
    var type: String
    var payload: Range<Int>
  }

  /// Most boxes read at one level: a real file has a few dozen.
  static let maxBoxes = 4096

  /// The boxes that tile `range` of `bytes`, up to the first whose size does not fit.
  static func boxes(_ bytes: UnsafeRawBufferPointer, in range: Range<Int>) -> [Box] {
    var found: [Box] = []
    var index = range.lowerBound
    while index + 8 <= range.upperBound, found.count < maxBoxes {
      let size = integer(bytes, at: index, count: 4)
      var header = 8
      var end: Int
      switch size {
      case 0: end = range.upperBound  // to the end of the parent
      case 1:
        // A 64-bit size follows the type.
        guard index + 16 <= range.upperBound else { return found }
        header = 16
        let large = integer(bytes, at: index + 8, count: 8)
        guard large <= range.upperBound - index else { return found }
        end = index + large
      default: end = index + size
      }
      guard end - index >= header, end <= range.upperBound else { return found }
      found.append(Box(type: fourCC(bytes, at: index + 4), payload: index + header..<end))
      index = end
    }
    return found
  }

  /// The primary item's type, and the types of the items it is derived from, from a `meta`
  /// box's payload (a full box: version and flags, then its children); nil when its `pitm` or
  /// the `infe` of that item is missing.
  static func primaryItem(_ bytes: UnsafeRawBufferPointer, meta: Range<Int>) -> (
    type: String, derivedFrom: [String]
  )? {
    guard meta.count >= 4 else { return nil }
    let children = boxes(bytes, in: meta.lowerBound + 4..<meta.upperBound)
    guard let pitm = children.first(where: { $0.type == "pitm" })?.payload,
      let primary = itemID(bytes, fullBox: pitm),
      let iinf = children.first(where: { $0.type == "iinf" })?.payload,
      let types = itemTypes(bytes, iinf: iinf), let type = types[primary]
    else { return nil }
    let sources = children.first(where: { $0.type == "iref" }).map {
      derivations(bytes, iref: $0.payload, of: primary)
    }
    return (type, (sources ?? []).compactMap { types[$0] })
  }

  /// Each item's type, by item ID, from an `iinf` payload: version and flags, an entry count
  /// (16 bits in version 0, else 32), then `infe` boxes (of version 2 or 3: an item ID of 16 or
  /// 32 bits, a protection index of 16, the item type; older versions name no type).
  static func itemTypes(_ bytes: UnsafeRawBufferPointer, iinf: Range<Int>) -> [Int: String]? {
    guard iinf.count >= 4 else { return nil }
    let countBytes = bytes[iinf.lowerBound] == 0 ? 2 : 4
    guard iinf.count >= 4 + countBytes else { return nil }
    var types: [Int: String] = [:]
    for entry in boxes(bytes, in: iinf.lowerBound + 4 + countBytes..<iinf.upperBound)
    where entry.type == "infe" {
      let payload = entry.payload
      guard payload.count >= 4 else { continue }
      let version = bytes[payload.lowerBound]
      guard version == 2 || version == 3 else { continue }
      let idBytes = version == 2 ? 2 : 4
      let typeAt = payload.lowerBound + 4 + idBytes + 2
      guard typeAt + 4 <= payload.upperBound else { continue }
      let id = integer(bytes, at: payload.lowerBound + 4, count: idBytes)
      if types[id] == nil { types[id] = fourCC(bytes, at: typeAt) }
    }
    return types
  }

  /// The items `item` is derived from (a grid's tiles, an overlay's layers), from an `iref`
  /// payload: version and flags, then one box per reference, its type the kind (`dimg`: derived
  /// from), holding the item it is from, a 16-bit count, and the items it refers to (IDs of 16
  /// bits in version 0, else 32).
  static func derivations(_ bytes: UnsafeRawBufferPointer, iref: Range<Int>, of item: Int)
    -> [Int]
  {
    guard iref.count >= 4 else { return [] }
    let idBytes = bytes[iref.lowerBound] == 0 ? 2 : 4
    var found: [Int] = []
    for reference in boxes(bytes, in: iref.lowerBound + 4..<iref.upperBound)
    where reference.type == "dimg" {
      let payload = reference.payload
      guard payload.count >= idBytes + 2,
        integer(bytes, at: payload.lowerBound, count: idBytes) == item
      else { continue }
      let count = integer(bytes, at: payload.lowerBound + idBytes, count: 2)
      let available = (payload.count - idBytes - 2) / idBytes
      for index in 0..<min(count, available) {
        found.append(
          integer(bytes, at: payload.lowerBound + idBytes + 2 + index * idBytes, count: idBytes))
      }
    }
    return found
  }

  /// A `pitm` payload's item ID (16 bits in version 0, else 32).
  private static func itemID(_ bytes: UnsafeRawBufferPointer, fullBox payload: Range<Int>) -> Int? {
    guard payload.count >= 6 else { return nil }
    let width = bytes[payload.lowerBound] == 0 ? 2 : 4
    guard payload.count >= 4 + width else { return nil }
    return integer(bytes, at: payload.lowerBound + 4, count: width)
  }

  /// The big-endian unsigned integer of `count` bytes (at most 8) at `index`; a value that does
  /// not fit an `Int` is `Int.max`.
  static func integer(_ bytes: UnsafeRawBufferPointer, at index: Int, count: Int) -> Int {
    var value: UInt64 = 0
    for offset in 0..<count { value = value << 8 | UInt64(bytes[index + offset]) }
    return value > UInt64(Int.max) ? Int.max : Int(value)
  }

  /// The four characters at `index`, as text (bytes outside printable ASCII as `?`).
  static func fourCC(_ bytes: UnsafeRawBufferPointer, at index: Int) -> String {
    String(
      decoding: (0..<4).map {
        (0x20...0x7E).contains(bytes[index + $0]) ? bytes[index + $0] : 0x3F
      },
      as: UTF8.self)
  }
}
