import ArtworkCore

/// How a create request carries its image, decided once from its Content-Type before any body
/// byte is read: the request's one content-type check (415 for anything else).
enum InputForm: Sendable, Equatable {
  /// `multipart/form-data` with a file part `image` (the whole header value: it has the boundary).
  case multipart(contentType: String)
  /// A raw image body of the declared `image/*` type (lowercased essence).
  case image(mediaType: String)
  /// JSON `{"url": ...}`.
  case json

  /// The form `contentType` names.
  init(contentType: String?) throws(ArtworkError) {
    let header = contentType ?? ""
    let essence = mediaTypeEssence(header)
    switch essence {
    case "multipart/form-data": self = .multipart(contentType: header)
    case "application/json": self = .json
    case _ where essence.hasPrefix("image/"): self = .image(mediaType: essence)
    default:
      let hint =
        "Send multipart/form-data with an `image` file part, a raw image/* body, or JSON {\"url\": ...}."
      throw ArtworkError(
        .unsupportedMediaType,
        essence.isEmpty
          ? "The request has no Content-Type. \(hint)"
          : "Content-Type \(ClientText.quoted(essence)) is not accepted. \(hint)")
    }
  }
}
