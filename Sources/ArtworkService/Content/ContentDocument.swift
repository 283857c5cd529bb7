import ArtworkCore

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
  /// `image_url`.
  let imageURL: ImageURL
  /// `image_shape` when sent as a string (checked: `poster`, `square` or `circle`).
  let shape: String?

  /// Reads `bytes` and checks the relay's rules: an object (or a push body with a `content`
  /// object), image fields only on the templates with an image slot, `image_url` a string or
  /// null, `image_shape` one of the three shapes, `image_thumbhash` null or a ThumbHash.
  /// `checkingThumbHash: false` takes any string as `image_thumbhash` (one a caller did not
  /// send but holds from before); `checkingRules: false` reads without any check (the content
  /// a relay has stored, judged when it was sent).
  init(parsing bytes: [UInt8], checkingRules: Bool = true, checkingThumbHash: Bool = true)
    throws(ArtworkError)
  {
    let document: JSONValue
    do throws(JSONSyntaxError) {
      document = try JSONValue(parsing: bytes)
    } catch {
      throw ArtworkError(.badRequest, "The body is not valid JSON: \(error).")
    }
    let start = Self.start(bytes)
    var contentRange = start..<bytes.count
    guard case .object = document,
      var members = JSONValue.memberSpans(in: bytes, objectAt: start)
    else {
      throw ArtworkError(
        .badRequest,
        "Send a Live Activity content object, or a push body with a \"content\" object.")
    }
    // A push body: the content object inside it is the document's content.
    if let inner = members.first(where: { $0.key.utf8.elementsEqual("content".utf8) }),
      case .object = inner.value
    {
      guard let spans = JSONValue.memberSpans(in: bytes, objectAt: inner.valueRange.lowerBound)
      else { throw ArtworkError(.badRequest, "The \"content\" object could not be read.") }
      members = spans
      contentRange = inner.valueRange
    }
    self.bytes = bytes
    self.members = members
    self.contentRange = contentRange
    let value = { (key: String) in Self.member(key, of: members) }
    guard checkingRules else {
      if case .string(let url) = value("image_url") {
        imageURL = .url(url)
      } else {
        imageURL = value("image_url") == .null ? .null : .absent
      }
      if case .string(let text) = value("image_shape") {
        shape = text.lowercased()
      } else {
        shape = nil
      }
      return
    }

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
    case nil: imageURL = .absent
    case .null: imageURL = .null
    case .string(let url): imageURL = .url(url)
    default:
      throw ArtworkError(
        .unprocessableContent, "image_url must be a string (an image URL) or null.")
    }
    switch value("image_shape") {
    case nil, .null: shape = nil
    // Any case, as POST /v1/artwork's shape: the answer writes it lower case, as the relay has it.
    case .string(let text) where Self.shapes.contains(text.lowercased()): shape = text.lowercased()
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
    case .string(let hash): if checkingThumbHash { try ThumbHashField.check(hash) }
    default:
      throw ArtworkError(
        .unprocessableContent, "image_thumbhash must be a string (a ThumbHash) or null.")
    }
  }

  /// The document with `image_url` set to `url` (when given) and `image_thumbhash` to `hash`
  /// (replacing any hash sent, which may describe another image; added after `image_url` when
  /// absent). Nothing else changes.
  func filled(imageURL url: String?, thumbHash hash: String) -> [UInt8] {
    var edits: [(range: Range<Int>, text: [UInt8])] = []
    let urlMember = members.first { $0.key.utf8.elementsEqual("image_url".utf8) }
    if let url, let urlMember { edits.append((urlMember.valueRange, Self.quoted(url))) }
    if let existing = members.first(where: { $0.key.utf8.elementsEqual("image_thumbhash".utf8) }) {
      edits.append((existing.valueRange, Self.quoted(hash)))
    } else if let urlMember {
      let end = urlMember.member.upperBound
      edits.append((end..<end, Array(",\"image_thumbhash\":".utf8) + Self.quoted(hash)))
    }
    var out = bytes
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      out.replaceSubrange(edit.range, with: edit.text)
    }
    return out
  }

  /// The three shapes, as the relay writes them.
  static let shapes = ["poster", "square", "circle"]

  /// The body with `image_shape` written lower case when it was sent in another case (the
  /// relay knows only `poster`, `square` and `circle`); as it is otherwise.
  func lowercasingShape() -> [UInt8] {
    guard let member = members.first(where: { $0.key.utf8.elementsEqual("image_shape".utf8) }),
      case .string(let text) = member.value, text != text.lowercased(),
      Self.shapes.contains(text.lowercased())
    else { return bytes }
    var out = bytes
    out.replaceSubrange(member.valueRange, with: Self.quoted(text.lowercased()))
    return out
  }

  /// The value of the content object's member `key`, when sent.
  func value(of key: String) -> JSONValue? { Self.member(key, of: members) }

  /// The three image fields as sent (nil for one not sent), to tell whether the artwork changed.
  var imageFields: [JSONValue?] { Self.imageFields.map { value(of: $0) } }

  /// The body with the content object's members `keys` taken out; every other byte as sent.
  func removing(_ keys: [String]) -> [UInt8] {
    // One member at a time, each with the comma that separated it from a neighbour.
    var out = bytes
    var current = self
    while let index = current.members.firstIndex(where: { member in
      keys.contains { $0.utf8.elementsEqual(member.key.utf8) }
    }) {
      let members = current.members
      let cut: Range<Int>
      if index + 1 < members.count {
        cut = members[index].member.lowerBound..<members[index + 1].member.lowerBound
      } else if index > 0 {
        cut = members[index - 1].member.upperBound..<members[index].member.upperBound
      } else {
        cut = members[index].member
      }
      out.removeSubrange(cut)
      // NOTE: what is left is valid JSON (a member and its comma went together), so it reads.
      guard let next = try? ContentDocument(parsing: out, checkingRules: false) else { break }
      current = next
    }
    return out
  }

  /// Keys compared by code points, as the reader compares them (Swift's `==` would take `"é"`
  /// and `"e\u{301}"`, two keys of one object, for the same).
  private static func member(_ key: String, of members: [JSONMemberSpan]) -> JSONValue? {
    members.first { $0.key.utf8.elementsEqual(key.utf8) }?.value
  }

  /// The offset of the first byte that is not whitespace.
  static func start(_ bytes: [UInt8]) -> Int {
    bytes.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? 0
  }

  private static func quoted(_ text: String) -> [UInt8] { JSONValue.string(text).bytes }
}
