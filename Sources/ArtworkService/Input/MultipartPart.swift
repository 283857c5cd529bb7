/// One part of a `multipart/form-data` body.
struct MultipartPart: Sendable {
  /// The form field name (`Content-Disposition: form-data; name="..."`).
  var name: String
  /// The file name a browser sent for a file field, if any (never trust it as a path).
  var filename: String?
  /// The part's `Content-Type` header value as sent (trimmed), if any.
  var contentType: String?
  /// The part's bytes, sharing storage with the request body (no copy).
  ///
  /// NOTE: a slice keeps the indices of the whole body: iterate it, or use
  /// `body.startIndex`, never `body[0]`. `Array(part.body)` makes a standalone copy.
  var body: ArraySlice<UInt8>

  /// A part with its disposition name, file name, content type and body.
  init(name: String, filename: String?, contentType: String?, body: ArraySlice<UInt8>) {
    self.name = name
    self.filename = filename
    self.contentType = contentType
    self.body = body
  }

  /// The body as UTF-8 text (form fields such as `shape`), or nil when it is not valid UTF-8.
  var text: String? { String(validating: body, as: UTF8.self) }
}
