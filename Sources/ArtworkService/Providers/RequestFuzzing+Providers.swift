import ArtworkCore
import JSON

extension RequestFuzzing {
  /// `POST /v1/providers/{provider}`'s body: the input's first line is the provider's name (any
  /// path segment, aliases included) and, after a space, the Content-Type; the rest is the
  /// body, read by the provider's reader as the route reads it. A reader answers an event or
  /// the 422 that says what it expected; the event's image is a web URL (an *arr `url` never),
  /// a media server's path holds nothing from the body but an id, sent bytes are a slice of the
  /// body, and the answer's item is JSON that reads back.
  package static func providerBody(_ input: UnsafeRawBufferPointer) {
    let (firstLine, body) = split(input)
    let line = String(decoding: firstLine, as: UTF8.self)
    let name = String(line.prefix { $0 != " " })
    let contentType = line.contains(" ") ? String(line.drop { $0 != " " }.dropFirst()) : nil
    guard let provider = try? Provider.named(name) else { return }
    let event: ProviderEvent
    do {
      event = try provider.read(
        ProviderInput(body: body, contentType: contentType, server: "http://media.example:8096"))
    } catch {
      precondition(error.kind == .unprocessableContent, "\(error)")
      precondition(error.detail.contains("expected"), error.detail)
      return
    }
    precondition(event.provider == provider)
    precondition(event.shape == .poster || event.shape == .square)
    switch event.image {
    case .url(let url, let fallback):
      for candidate in [url] + (fallback.map { [$0] } ?? []) {
        precondition(ArrImages.isWebURL(candidate), "not a web URL: \(candidate)")
        precondition(!TMDBImage.isMissing(candidate), "a URL that names no image")
        // The size is the segment after the first `/t/p/`; a later `/t/p/original/` is part
        // of the file's name, never a size TMDB is asked for.
        let size = candidate.range(of: "/t/p/").map {
          candidate[$0.upperBound...].prefix { $0 != "/" }
        }
        precondition(size != "original", "TMDB's original asked for")
      }
      if provider == .jellyfin || provider == .emby, let items = url.range(of: "/Items/") {
        let id = url[items.upperBound...].prefix { $0 != "/" }
        precondition(
          id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") },
          "an id that is not one: \(id)")
        precondition(url.hasSuffix("/Images/Primary?maxHeight=1200&quality=90"))
      }
    case .bytes(let bytes, _):
      precondition(provider.sendsImages)
      precondition(bytes.startIndex >= 0 && bytes.endIndex <= body.count)
      precondition(bytes.elementsEqual(body[bytes.startIndex..<bytes.endIndex]))
    case .none: break
    }
    if let item = event.item {
      let json = ProviderHandler.itemJSON(item)
      guard let again = try? JSONValue(parsing: json.bytes) else {
        preconditionFailure("an item does not read back")
      }
      precondition(again.bytes == json.bytes, "an item reads back otherwise")
    }
  }
}
