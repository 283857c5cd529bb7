/// An ordered list of header fields with case-insensitive name lookup.
///
/// Order and duplicates are kept as given; lookups compare names ASCII case-insensitively. A
/// request's fields are kept as the parser read them, bytes: a lookup compares bytes, and a value
/// becomes a string only when it is read (a request answered from memory makes none).
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
  /// One header field.
  public typealias Element = (name: String, value: String)

  private var fields: [Element]
  /// A request's fields as read (values not yet trimmed of trailing whitespace); `fields` is
  /// empty while these are set, and any change turns them into `fields` first.
  private var wire: [RequestParser.Field]?

  /// The fields as a response head carries them (`name: value` lines, those the server may
  /// forward), made once by `prepare()` for headers sent many times; nil after any change.
  private(set) var prepared: [UInt8]?

  /// An empty header list.
  public init() {
    fields = []
  }

  /// A request's fields as the parser read them (the array is shared, not copied).
  init(wire: [RequestParser.Field]) {
    fields = []
    self.wire = wire
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
    if wire != nil { return valueBytes(name).map { String(decoding: $0, as: UTF8.self) } }
    return fields.first { Self.same($0.name, name) }?.value
  }

  /// The bytes of the first value of the field `name`, without making a string.
  func valueBytes(_ name: String) -> ArraySlice<UInt8>? {
    guard let wire else { return self[name].map { Array($0.utf8)[...] } }
    return wire.first { Self.same($0.name, name) }.map { Self.trimmed($0.value[...]) }
  }

  /// Every value of the field `name` (case-insensitive), in order.
  public func values(_ name: String) -> [String] {
    filter { Self.same($0.name, name) }.map(\.value)
  }

  /// Whether a field called `name` is present.
  public func contains(_ name: String) -> Bool {
    if let wire { return wire.contains { Self.same($0.name, name) } }
    return fields.contains { Self.same($0.name, name) }
  }

  /// Whether a field called `name` lists `token` (ASCII case-insensitive) among its
  /// comma-separated items, as `Connection: close` does.
  func lists(_ name: String, _ token: String) -> Bool {
    if let wire {
      return wire.contains { Self.same($0.name, name) && Self.lists($0.value[...], token) }
    }
    return fields.contains {
      Self.same($0.name, name) && Self.lists(Array($0.value.utf8)[...], token)
    }
  }

  /// Whether the comma-separated `value` has an item `token`. Item by item in place: `split`
  /// would make an array for every request that sends the field (HTTP/1.1 clients often send
  /// `Connection: keep-alive`).
  private static func lists(_ value: ArraySlice<UInt8>, _ token: String) -> Bool {
    var start = value.startIndex
    while start <= value.endIndex {
      let end = value[start...].firstIndex(of: UInt8(ascii: ",")) ?? value.endIndex
      if same(trimmed(value[start..<end], leading: true), token) { return true }
      start = end + 1
    }
    return false
  }

  /// Appends a field, keeping any existing fields of the same name.
  public mutating func add(_ name: String, _ value: String) {
    unwire()
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
    unwire()
    fields.removeAll { Self.same($0.name, name) }
    prepared = nil
  }

  /// Turns wire fields into text ones, before a change.
  private mutating func unwire() {
    guard let wire else { return }
    fields = wire.map(Self.text)
    self.wire = nil
  }

  private static func text(_ field: RequestParser.Field) -> Element {
    (
      String(decoding: field.name, as: UTF8.self),
      String(decoding: trimmed(field.value[...]), as: UTF8.self)
    )
  }

  /// `value` without the spaces and tabs http-parser leaves after it (and before it, with
  /// `leading`).
  private static func trimmed(_ value: ArraySlice<UInt8>, leading: Bool = false) -> ArraySlice<
    UInt8
  > {
    var value = value
    while let last = value.last, last == 32 || last == 9 { value = value.dropLast() }
    while leading, let first = value.first, first == 32 || first == 9 { value = value.dropFirst() }
    return value
  }

  /// Serialises the fields once, for headers answered many times (a cached image's): a head
  /// made from them then copies the bytes instead of checking and writing each field again.
  public mutating func prepare() {
    var bytes: [UInt8] = []
    ResponseHead.appendFields(self, to: &bytes)
    prepared = bytes
  }

  /// The number of fields.
  public var count: Int { wire?.count ?? fields.count }

  public func makeIterator() -> IndexingIterator<[Element]> {
    (wire?.map(Self.text) ?? fields).makeIterator()
  }

  /// ASCII case-insensitive comparison, as header names are ASCII tokens.
  static func same(_ lhs: String, _ rhs: String) -> Bool {
    same(lhs.utf8, rhs)
  }

  /// `same` for a name given as bytes.
  static func same(_ left: some Collection<UInt8>, _ rhs: String) -> Bool {
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
