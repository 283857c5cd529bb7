/// What becomes of a content document's image fields (`ContentHandler`).
struct ArtworkFill: Sendable {
  enum Fields: Sendable {
    /// No image_url to fill: the document as it is.
    case unchanged
    /// `image_url` (when not nil) and `image_thumbhash` set to these.
    case set(url: String?, hash: String)
    /// The artwork could not be had in time (or at all): no image fields from this source.
    case notFilled
  }
  var fields: Fields
  /// `Artwork-Status`: `ready`, `pending` or `failed; reason="..."` (nil: no image_url).
  var status: String?
  /// The age of a remembered result (the `Age` header).
  var age: Int?
}
