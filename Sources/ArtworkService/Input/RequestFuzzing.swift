import ArtworkCore
import HTTP
import JSON

/// The fuzz targets' doors into the request-body readers (`Fuzz/artwork-fuzz`): each takes one
/// input's bytes, runs the reader as a route does, and checks what the service relies on of its
/// answer. A broken expectation traps: under libFuzzer that is a finding.
package enum RequestFuzzing {
  /// `POST /v1/artwork`'s body: the input's first line is the Content-Type (a multipart boundary,
  /// JSON or an image type), the rest is the body, read as a create request is.
  package static func createRequest(_ input: UnsafeRawBufferPointer) {
    let (firstLine, body) = split(input)
    let contentType = String(decoding: firstLine, as: UTF8.self)
    guard let form = try? InputForm(contentType: contentType),
      let head = HTTPRequestHead(
        id: "fuzz", method: .post, target: "/v1/artwork",
        headers: HTTPHeaders([("Content-Type", contentType)]))
    else { return }
    let request = HTTPRequest(head: head, body: body)
    guard let parsed = try? ArtworkRequest.parse(request, form: form) else { return }
    if case .upload(let bytes, _) = parsed.source {
      // A part is a slice of the body as sent, never bytes from anywhere else.
      precondition(bytes.startIndex >= 0 && bytes.endIndex <= body.count)
      precondition(bytes.elementsEqual(body[bytes.startIndex..<bytes.endIndex]))
    }
    precondition(parsed.fields.keys.allSatisfy(ArtworkRequest.optionNames.contains))
    _ = try? ArtworkOptions(fields: parsed.fields)
  }

  /// `POST /v1/content`'s body: read, and when it has a URL filled as the route fills it (a new
  /// URL and hash that need escaping, or a hash only), and the result read again: it must be JSON
  /// that holds exactly what was filled in and every other field as it was.
  ///
  /// The same bytes are also read as the update form (merged, it must read back as content and
  /// keep what the rules keep) and as a `Prefer` and a `Cache-Control` value.
  package static func contentDocument(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    if let wait = RequestPreferences.wait(prefer: text) {
      precondition((0...RequestPreferences.maxWait).contains(wait))
    }
    _ = RequestPreferences.asksRevalidation(cacheControl: text)
    contentUpdate(Array(input))
    guard let document = try? ContentDocument(parsing: Array(input)),
      case .url(let sent) = document.imageURL
    else { return }
    let hash = "3OcRJYB4d3h/iIeHeEh3eIhw+j2w"
    for url in ["https://example.com/a\"b\\c\u{2028}\u{0}é", nil] {
      let answer = document.answered(imageURL: url, thumbHash: hash)
      guard let again = try? ContentDocument(parsing: answer.bytes)
      else { preconditionFailure("a filled document does not read back") }
      precondition(again.imageURL == .url(url ?? sent))
      precondition(again.shape == document.shape)
      precondition(again.value(of: "image_thumbhash") == .string(hash))
      precondition(
        ContentHandler.comparable(again.imageFields)
          == ContentHandler.comparable(answer.imageFields), "the answer's fields are not its own")
      for member in document.members where !["image_url", "image_thumbhash"].contains(member.key) {
        precondition(again.value(of: member.key) == kept(member), "\(member.key) changed")
      }
      let added = document.value(of: "image_thumbhash") == nil ? 1 : 0
      precondition(again.members.count == document.members.count + added)
    }
  }

  /// What the answer holds of a member it does not fill: the value as sent, but for a shape sent
  /// in another case (`"Poster"`), which is written lower case, as the relay knows it.
  private static func kept(_ member: JSONMemberSpan) -> JSONValue {
    guard member.key.utf8.elementsEqual("image_shape".utf8), case .string(let text) = member.value,
      ContentDocument.shapes.contains(text.lowercased())
    else { return member.value }
    return .string(text.lowercased())
  }

  /// The update form merged, with and without the patch's image: the result reads as content,
  /// every member is its text as sent, no null member the patch cleared is left, and no image
  /// field stands on a template without a slot.
  private static func contentUpdate(_ bytes: [UInt8]) {
    guard let update = try? ContentUpdate(parsing: bytes) else { return }
    for withoutImage in [false, true] {
      guard let merged = try? update.merged(withoutPatchImage: withoutImage) else { continue }
      guard let document = try? ContentDocument(parsing: merged.bytes, checkingRules: false) else {
        preconditionFailure("a merged update does not read back")
      }
      // Where the merge noted each member is where reading finds it.
      precondition(document.members == merged.members, "a merged member is not where noted")
      precondition(document.contentRange == merged.contentRange)
      // Each member is its text as sent, in the document its value comes from.
      for member in merged.members {
        let ignored = withoutImage && ContentDocument.imageFields.contains(member.key)
        let sent = !ignored && update.patch.member(member.key) != nil
        let from = sent ? update.patch : update.stored
        guard let source = from.member(member.key) else { preconditionFailure("\(member.key)?") }
        precondition(
          merged.bytes[member.member].elementsEqual(from.bytes[source.member]),
          "\(member.key) is not as sent")
      }
      for member in update.patch.members where member.value == .null {
        if withoutImage, ContentDocument.imageFields.contains(member.key) { continue }
        precondition(document.value(of: member.key) == nil, "\(member.key) not cleared")
      }
      if case .string(let template) = document.value(of: "template"),
        !ContentDocument.imageTemplates.contains(template)
      {
        precondition(document.imageFields.allSatisfy { $0 == nil }, "image on \(template)")
      }
      let removed = document.removing(["image_url"])
      guard let without = try? ContentDocument(parsing: removed, checkingRules: false) else {
        preconditionFailure("a document without image_url does not read back")
      }
      precondition(without.value(of: "image_url") == nil)
      precondition(
        without.members.count == document.members.count
          - (document.value(of: "image_url") == nil ? 0 : 1))
    }
  }

  /// The input split at its first line feed (the whole input is the first line without one).
  static func split(_ input: UnsafeRawBufferPointer) -> ([UInt8], [UInt8]) {
    guard let newline = input.firstIndex(of: 0x0A) else { return (Array(input), []) }
    return (Array(input[..<newline]), Array(input[(newline + 1)...]))
  }
}
