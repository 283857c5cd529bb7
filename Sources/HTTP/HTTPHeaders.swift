/// An ordered list of header fields with case-insensitive name lookup.
///
/// Order and duplicates are kept as given; lookups compare names ASCII case-insensitively.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
  /// One header field.
  public typealias Element = (name: String, value: String)

  private var fields: [Element]

  /// The fields as a response head carries them (`name: value` lines, those the server may
  /// forward), made once by `prepare()` for headers sent many times; nil after any change.
  private(set) var prepared: [UInt8]?

  /// An empty header list.
  public init() {
    fields = []
  }

  /// An empty header list with room for `count` fields (one allocation for a parsed head).
  init(capacity count: Int) {
    fields = []
    fields.reserveCapacity(count)
  }

  /// Headers in the order given.
  public init(_ fields: [(String, String)]) {
    self.fields = fields.map { (name: $0.0, value: $0.1) }
  }

  public init(dictionaryLiteral elements: (String, String)...) {
    self.init(elements)
  }

  /// The first value of the field `name` (case-insensitive), or nil when absent.
  public subscript(name: String) -> String? {
    fields.first { Self.same($0.name, name) }?.value
  }

  /// Every value of the field `name` (case-insensitive), in order.
  public func values(_ name: String) -> [String] {
    fields.filter { Self.same($0.name, name) }.map(\.value)
  }

  /// Whether a field called `name` is present.
  public func contains(_ name: String) -> Bool {
    fields.contains { Self.same($0.name, name) }
  }

  /// Appends a field, keeping any existing fields of the same name.
  public mutating func add(_ name: String, _ value: String) {
    fields.append((name: name, value: value))
    prepared = nil
  }

  /// Replaces every field called `name` with one field holding `value`.
  public mutating func set(_ name: String, _ value: String) {
    remove(name)
    add(name, value)
  }

  /// Removes every field called `name`.
  mutating func remove(_ name: String) {
    fields.removeAll { Self.same($0.name, name) }
    prepared = nil
  }

  /// Serialises the fields once, for headers answered many times (a cached image's): a head
  /// made from them then copies the bytes instead of checking and writing each field again.
  public mutating func prepare() {
    var bytes: [UInt8] = []
    ResponseHead.appendFields(self, to: &bytes)
    prepared = bytes
  }

  /// The number of fields.
  public var count: Int { fields.count }

  public func makeIterator() -> IndexingIterator<[Element]> {
    fields.makeIterator()
  }

  /// ASCII case-insensitive comparison, as header names are ASCII tokens.
  static func same(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.utf8
    let right = rhs.utf8
    guard left.count == right.count else { return false }
    var rightIndex = right.startIndex
    for byte in left {
      guard lower(byte) == lower(right[rightIndex]) else { return false }
      right.formIndex(after: &rightIndex)
    }
    return true
  }

  private static func lower(_ byte: UInt8) -> UInt8 {
    (byte >= 65 && byte <= 90) ? byte | 0x20 : byte
  }
}
