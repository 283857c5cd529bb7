import ArtworkCore
import JSON

/// A Live Activity `content` object as a relay holds it (alone, or inside a push body as
/// `{"state": ..., "content": {...}}`), read for its three image fields and the relay's rules,
/// and written back with only those fields changed: every other byte as sent (key order,
/// spacing, `0.35` and `1750003600` exactly as written).
struct ContentDocument: Sendable {
  /// What the document says of `image_url`.
  enum ImageURL: Sendable, Equatable {
    /// Not sent: the artwork carries forward on the relay.
    case absent
    /// `null`: clears the artwork on the relay.
    case null
    /// A URL to fill from.
    case url(String)
  }

  /// The templates that have an image slot (the relay refuses image fields on any other).
  static let imageTemplates = ["generic", "steps", "media"]
  /// The three fields, in the order the relay documents them.
  static let imageFields = ["image_url", "image_shape", "image_thumbhash"]

  /// The body as sent.
  let bytes: [UInt8]
  /// The members of the content object, where they are in `bytes`.
  let members: [JSONMemberSpan]
  /// Where the content object is in `bytes` (all of it, unless the body is a push body).
  let contentRange: Range<Int>

  /// A document whose members were found already (read, or written by `ContentUpdate`),
  /// unchecked.
  init(bytes: [UInt8], members: [JSONMemberSpan], contentRange: Range<Int>) {
    self.bytes = bytes
    self.members = members
    self.contentRange = contentRange
  }

  /// Reads `bytes` (once) and checks the relay's rules (`checkRules`); `checkingRules: false`
  /// reads without any check (the content a relay has stored, judged when it was sent).
  init(parsing bytes: [UInt8], checkingRules: Bool = true, checkingThumbHash: Bool = true)
    throws(ArtworkError)
  {
    let text = try Self.read(bytes)
    try self.init(text, valueAt: text.start..<bytes.count)
    if checkingRules { try checkRules(thumbHash: checkingThumbHash) }
  }

  /// The body as JSON text, read once; a 400 when it is not JSON.
  static func read(_ bytes: [UInt8]) throws(ArtworkError) -> JSONText {
    do throws(JSONSyntaxError) {
      return try JSONText(parsing: bytes)
    } catch {
      throw ArtworkError(.badRequest, "The body is not valid JSON: \(error).")
    }
  }

  /// The document that is the value at `range` of `text` (its bytes those of the range), from
  /// what reading `text` found: an object, or a push body with a `content` object. Unchecked.
  init(_ text: JSONText, valueAt range: Range<Int>) throws(ArtworkError) {
    guard var members = text.members(ofObjectAt: range.lowerBound) else {
      throw ArtworkError(
        .badRequest,
        "Send a Live Activity content object, or a push body with a \"content\" object.")
    }
    var contentRange = range
    // A push body: the content object inside it is the document's content.
    if let inner = members.first(where: { $0.key.utf8.elementsEqual("content".utf8) }),
      case .object = inner.value, let spans = text.members(ofObjectAt: inner.valueRange.lowerBound)
    {
      members = spans
      contentRange = inner.valueRange
    }
    let shift = -range.lowerBound
    let whole = range == text.start..<text.bytes.count
    self.init(
      bytes: whole ? text.bytes : Array(text.bytes[range]),
      members: whole ? members : members.map { $0.moved(by: shift) },
      contentRange: whole
        ? contentRange : contentRange.lowerBound + shift..<contentRange.upperBound + shift)
  }

  /// `image_url`.
  var imageURL: ImageURL {
    switch value(of: "image_url") {
    case .string(let url)?: .url(url)
    case .null?: .null
    default: .absent
    }
  }

  /// `image_shape` when sent as a string, in lower case (`checkRules` allows only `poster`,
  /// `square` or `circle`).
  var shape: String? {
    guard case .string(let text)? = value(of: "image_shape") else { return nil }
    return text.lowercased()
  }

  /// The relay's rules: image fields only on the templates with an image slot, `image_url` a
  /// string or null, `image_shape` one of the three shapes, `image_thumbhash` null or a
  /// ThumbHash. `thumbHash: false` takes any string as `image_thumbhash` (one a caller did not
  /// send but holds from before).
  func checkRules(thumbHash: Bool = true) throws(ArtworkError) {
    let value = { (key: String) in self.value(of: key) }
    switch value("template") {
    case nil, .string: break
    default:
      throw ArtworkError(
        .unprocessableContent, "template must be a string (the relay's template name).")
    }
    let sent = Self.imageFields.filter { value($0) != nil }
    if !sent.isEmpty, case .string(let template) = value("template"),
      !Self.imageTemplates.contains(template)
    {
      throw ArtworkError(
        .unprocessableContent,
        "The template \(ClientText.quoted(template)) has no image slot, so \(sent.joined(separator: ", ")) cannot be sent with it; only generic, steps and media show an image."
      )
    }
    switch value("image_url") {
    case nil, .null, .string: break
    default:
      throw ArtworkError(
        .unprocessableContent, "image_url must be a string (an image URL) or null.")
    }
    switch value("image_shape") {
    case nil, .null: break
    // Any case, as POST /v1/artwork's shape: the answer writes it lower case, as the relay has it.
    case .string(let text) where Self.shapes.contains(text.lowercased()): break
    case .string(let text):
      throw ArtworkError(
        .unprocessableContent,
        "image_shape \(ClientText.quoted(text)) is not a shape; use poster, square or circle.")
    default:
      throw ArtworkError(
        .unprocessableContent, "image_shape must be \"poster\", \"square\" or \"circle\".")
    }
    switch value("image_thumbhash") {
    case nil, .null: break
    case .string(let hash): if thumbHash { try ThumbHashField.check(hash) }
    default:
      throw ArtworkError(
        .unprocessableContent, "image_thumbhash must be a string (a ThumbHash) or null.")
    }
  }

  /// What `POST /v1/content` answers: the body, and its three image fields (for
  /// `Artwork-Changed`).
  struct Answer: Sendable {
    var bytes: [UInt8]
    var imageFields: [JSONValue?]
  }

  /// The document as answered: `image_url` set to `url` (when given) and `image_thumbhash` to
  /// `hash` (when given: replacing any hash sent, which may describe another image; added after
  /// `image_url` when absent), and `image_shape` written lower case when it was sent in another
  /// case (the relay knows only `poster`, `square` and `circle`). Nothing else changes.
  func answered(imageURL url: String? = nil, thumbHash hash: String? = nil) -> Answer {
    var edits: [(range: Range<Int>, text: [UInt8])] = []
    var fields = imageFields
    let urlMember = member("image_url")
    if let url, let urlMember {
      edits.append((urlMember.valueRange, Self.quoted(url)))
      fields[0] = .string(url)
    }
    if let hash {
      if let existing = member("image_thumbhash") {
        edits.append((existing.valueRange, Self.quoted(hash)))
        fields[2] = .string(hash)
      } else if let urlMember {
        let end = urlMember.member.upperBound
        edits.append((end..<end, Array(",\"image_thumbhash\":".utf8) + Self.quoted(hash)))
        fields[2] = .string(hash)
      }
    }
    if let shapeMember = member("image_shape"), case .string(let text) = shapeMember.value,
      text != text.lowercased(), Self.shapes.contains(text.lowercased())
    {
      edits.append((shapeMember.valueRange, Self.quoted(text.lowercased())))
    }
    var out = bytes
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      out.replaceSubrange(edit.range, with: edit.text)
    }
    return Answer(bytes: out, imageFields: fields)
  }

  /// The three shapes, as the relay writes them.
  static let shapes = ["poster", "square", "circle"]

  /// The value of the content object's member `key`, when sent.
  func value(of key: String) -> JSONValue? { member(key)?.value }

  /// The three image fields as sent (nil for one not sent), to tell whether the artwork changed.
  var imageFields: [JSONValue?] { Self.imageFields.map { value(of: $0) } }

  /// The body with the content object's members `keys` taken out; every other byte as sent.
  func removing(_ keys: [String]) -> [UInt8] {
    // Each member goes with the comma between it and a neighbour that stays: the next one when
    // there is one, else the one before. Cuts of neighbours may overlap; their union goes.
    var remaining = members
    var cuts: [Range<Int>] = []
    while let index = remaining.firstIndex(where: { member in
      keys.contains { $0.utf8.elementsEqual(member.key.utf8) }
    }) {
      if index + 1 < remaining.count {
        cuts.append(remaining[index].member.lowerBound..<remaining[index + 1].member.lowerBound)
      } else if index > 0 {
        cuts.append(remaining[index - 1].member.upperBound..<remaining[index].member.upperBound)
      } else {
        cuts.append(remaining[index].member)
      }
      remaining.remove(at: index)
    }
    var out = bytes
    var end = Int.max
    for cut in cuts.sorted(by: { $0.upperBound > $1.upperBound }) {
      // What an earlier (later-placed) cut took already is gone from `out`.
      let upper = min(cut.upperBound, end)
      if cut.lowerBound < upper { out.removeSubrange(cut.lowerBound..<upper) }
      end = min(end, cut.lowerBound)
    }
    return out
  }

  /// Keys compared by code points, as the reader compares them (Swift's `==` would take `"é"`
  /// and `"e\u{301}"`, two keys of one object, for the same).
  func member(_ key: String) -> JSONMemberSpan? {
    members.first { $0.key.utf8.elementsEqual(key.utf8) }
  }

  private static func quoted(_ text: String) -> [UInt8] { JSONValue.string(text).bytes }
}
