import ArtworkCore
import JSON

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
/// then the patch's new ones; each member is written byte for byte as sent (its key with any
/// escapes, the spacing around its colon, its value), with the separators of the document whose
/// order it stands in (see `write`).
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

    // Each member with the document its text comes from, and where it stands: in the stored
    // order (kept, or with the patch's value) or added after it from the patch.
    var out: [Placed] = []
    for (index, member) in stored.members.enumerated() {
      if let replacement = sent(member.key) {
        if replacement.value != .null {
          out.append(Placed(member: replacement, from: patch, slot: .stored(index)))
        }
      } else if !dropped.contains(member.key) {
        out.append(Placed(member: member, from: stored, slot: .stored(index)))
      }
    }
    for (index, member) in patch.members.enumerated() where member.value != .null {
      guard sent(member.key) != nil,
        !stored.members.contains(where: { $0.key.utf8.elementsEqual(member.key.utf8) })
      else { continue }
      if !hasImageSlot, ContentDocument.imageFields.contains(member.key) { continue }
      out.append(Placed(member: member, from: patch, slot: .added(index)))
    }
    return write(out)
  }

  /// A member of the merged content: its text comes from `from`; `slot` is where it stands.
  private struct Placed {
    enum Slot {
      /// In the stored content's order, at this index of its members.
      case stored(Int)
      /// After the stored members, from this index of the patch's members.
      case added(Int)
    }
    let member: JSONMemberSpan
    let from: ContentDocument
    let slot: Slot
  }

  /// `out` written into the patch's body in place of its content, each member's place noted.
  ///
  /// Every member is its text as sent, from its key's opening quote to its value's end (the key
  /// with its escapes, the spacing around the colon, the value), in the document it comes from.
  /// The separators (the comma and the white space around it) follow the document whose order a
  /// member stands in: a member in the stored order gets the separator that comes before it in
  /// the stored content, one added from the patch the separator before it in the patch (the one
  /// after it when it is the patch's first). The braces and the space inside them are the stored
  /// content's (the patch's when the stored content has no member). So a member kept or added
  /// comes back byte for byte, and the layout is that of the stored content, then the patch's.
  private func write(_ out: [Placed]) -> ContentDocument {
    let start = patch.contentRange.lowerBound
    let frame = stored.members.isEmpty ? patch : stored
    var content: [UInt8] = []
    var spans: [JSONMemberSpan] = []
    if let first = frame.members.first, !out.isEmpty {
      content += frame.bytes[frame.contentRange.lowerBound..<first.member.lowerBound]
    } else {
      content.append(UInt8(ascii: "{"))
    }
    for (index, entry) in out.enumerated() {
      if index > 0 { content += separator(before: entry) }
      let memberStart = start + content.count
      content += entry.from.bytes[entry.member.member]
      spans.append(entry.member.moved(by: memberStart - entry.member.member.lowerBound))
    }
    if let last = frame.members.last, !out.isEmpty {
      content += frame.bytes[last.member.upperBound..<frame.contentRange.upperBound]
    } else {
      content.append(UInt8(ascii: "}"))
    }
    var body = patch.bytes
    body.replaceSubrange(patch.contentRange, with: content)
    return ContentDocument(
      bytes: body, members: spans, contentRange: start..<start + content.count)
  }

  /// The separator before `entry` when it is not the first member (see `write`).
  private func separator(before entry: Placed) -> ArraySlice<UInt8> {
    switch entry.slot {
    case .stored(let index) where index > 0:
      return stored.separator(before: index)
    case .added(let index) where index > 0:
      return patch.separator(before: index)
    case .added where patch.members.count > 1:
      return patch.separator(before: 1)
    default:
      // Neither document has a separator of its own: the stored one's first, else a comma.
      return stored.members.count > 1 ? stored.separator(before: 1) : [UInt8(ascii: ",")]
    }
  }
}

extension ContentDocument {
  /// The text between the content object's members `index - 1` and `index` (a comma and the
  /// white space around it), as sent.
  fileprivate func separator(before index: Int) -> ArraySlice<UInt8> {
    bytes[members[index - 1].member.upperBound..<members[index].member.lowerBound]
  }
}
