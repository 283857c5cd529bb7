import ArtworkCore

/// The update form of `POST /v1/content`: `{"stored": <the activity's content as the relay
/// holds it>, "patch": <the update as received>}`, merged by the relay's documented rules:
/// - a field the patch omits carries forward; one it sends replaces the stored one; one it sends
///   as `null` is cleared (left out of the result);
/// - `"image_url": null` clears the artwork: the stored `image_thumbhash` goes with it (beside
///   another `image_url` it stays in its place, to be replaced by the new image's when filled);
/// - on a switch to a template without an image slot, the stored image fields are dropped, and
///   image fields sent in the same patch (even as null) are a 422, as the relay has it: a
///   contradiction only the sender can resolve.
///
/// The result is the patch's shape: a content object, or a push body whose `content` is the
/// merged content. Its members are the stored ones in their order (with the patch's values),
/// then the patch's new ones; keys and values are written as sent.
struct ContentUpdate: Sendable {
  /// The stored content (read without checks: the relay judged it when it was sent).
  let stored: ContentDocument
  /// The patch, checked like a document of its own.
  let patch: ContentDocument

  /// Nil when `bytes` is not the update form (or not JSON); as `init(_:)` otherwise.
  init?(parsing bytes: [UInt8]) throws(ArtworkError) {
    guard let text = try? JSONText(parsing: bytes) else { return nil }
    try self.init(text)
  }

  /// Nil when `text` is not the update form (an object with `stored` and `patch` and no other
  /// member); throws when it is, but a part is not an object or breaks a rule. Reads nothing
  /// again: the parts are found where reading `text` found them.
  init?(_ text: JSONText) throws(ArtworkError) {
    guard case .object(let members) = text.value,
      members.count == 2,
      Set(members.map(\.0)) == ["stored", "patch"],
      let spans = text.members(ofObjectAt: text.start)
    else { return nil }
    func part(_ name: String) throws(ArtworkError) -> Range<Int> {
      guard let span = spans.first(where: { $0.key.utf8.elementsEqual(name.utf8) }),
        case .object = span.value
      else {
        throw ArtworkError(
          .badRequest,
          "In the update form, \(name) must be an object: {\"stored\": <the content the relay holds>, \"patch\": <the update as received>}."
        )
      }
      return span.valueRange
    }
    let storedRange = try part("stored")
    let patchRange = try part("patch")
    stored = try ContentDocument(text, valueAt: storedRange)
    patch = try ContentDocument(text, valueAt: patchRange)
    try patch.checkRules()
  }

  /// The merged body, in the patch's shape (see the type's rules); `withoutPatchImage` merges
  /// as if the patch had sent none of the three image fields (the stored artwork carries
  /// forward: what a relay pushes when the new artwork is not ready). The result's members are
  /// known as it is written: it is not read again. Unchecked: the caller checks the rules that
  /// apply to it.
  func merged(withoutPatchImage: Bool = false) throws(ArtworkError) -> ContentDocument {
    let sent = { (key: String) -> JSONMemberSpan? in
      if withoutPatchImage, ContentDocument.imageFields.contains(key) { return nil }
      return patch.members.first { $0.key.utf8.elementsEqual(key.utf8) }
    }
    let template: String? =
      switch sent("template")?.value ?? stored.value(of: "template") {
      case .string(let name)?: name
      default: nil
      }
    let hasImageSlot = template.map(ContentDocument.imageTemplates.contains) ?? true
    if !hasImageSlot, let template {
      // As the relay does: any of the three sent, even null, is a 422 on such a template.
      let contradiction = ContentDocument.imageFields.filter { sent($0) != nil }
      if !contradiction.isEmpty {
        throw ArtworkError(
          .unprocessableContent,
          "The patch switches to the template \(ClientText.quoted(template)), which has no image slot, and also sends \(contradiction.joined(separator: ", ")): send one or the other.",
          members: [.string("field", contradiction[0])])
      }
    }
    // What the stored artwork loses: all of it without an image slot; its hash when the patch
    // clears image_url (the hash describes the image that went). A hash kept beside a new
    // image_url is replaced by the new image's when the artwork is filled.
    var dropped: Set<String> = []
    if !hasImageSlot { dropped.formUnion(ContentDocument.imageFields) }
    if sent("image_url")?.value == .null, sent("image_thumbhash") == nil {
      dropped.insert("image_thumbhash")
    }

    // Each member with the document its value is written in.
    var out: [(member: JSONMemberSpan, from: ContentDocument)] = []
    for member in stored.members {
      if let replacement = sent(member.key) {
        if replacement.value != .null { out.append((replacement, patch)) }
      } else if !dropped.contains(member.key) {
        out.append((member, stored))
      }
    }
    for member in patch.members where member.value != .null {
      guard sent(member.key) != nil,
        !stored.members.contains(where: { $0.key.utf8.elementsEqual(member.key.utf8) })
      else { continue }
      if !hasImageSlot, ContentDocument.imageFields.contains(member.key) { continue }
      out.append((member, patch))
    }
    // Written into the patch's body in place of its content; each member's place noted.
    let start = patch.contentRange.lowerBound
    var content: [UInt8] = [UInt8(ascii: "{")]
    var spans: [JSONMemberSpan] = []
    for (index, entry) in out.enumerated() {
      if index > 0 { content.append(UInt8(ascii: ",")) }
      let memberStart = start + content.count
      content += JSONValue.string(entry.member.key).bytes
      let keyEnd = start + content.count
      content.append(UInt8(ascii: ":"))
      let valueStart = start + content.count
      content += entry.from.text(of: entry.member)
      spans.append(
        JSONMemberSpan(
          key: entry.member.key, value: entry.member.value,
          member: memberStart..<start + content.count, keyRange: memberStart..<keyEnd,
          valueRange: valueStart..<start + content.count))
    }
    content.append(UInt8(ascii: "}"))
    var body = patch.bytes
    body.replaceSubrange(patch.contentRange, with: content)
    return ContentDocument(
      bytes: body, members: spans, contentRange: start..<start + content.count)
  }
}

extension ContentDocument {
  /// A member's value as written.
  func text(of member: JSONMemberSpan) -> [UInt8] { Array(bytes[member.valueRange]) }
}
