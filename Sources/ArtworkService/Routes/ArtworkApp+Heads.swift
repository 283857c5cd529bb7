import ArtworkCore
import HTTP

extension ArtworkApp {
  /// Write endpoints, first of all: the bearer token (401). The body's declared size comes
  /// next (the HTTP layer's check against the route's limit: 413, `uploadTooLarge` its detail).
  func checkCredentials(_ head: inout HTTPRequestHead) throws(ArtworkError) {
    try authenticator.authorize(head.headers["Authorization"])
  }

  /// `POST /v1/artwork` and `POST /v1/thumbhash`, from the head alone, before any body byte is
  /// read: the input form (415; left in `head.attachment` for the parse), then admission (503
  /// when the image queue is full).
  func checkUploadHead(_ head: inout HTTPRequestHead) throws(ArtworkError) {
    let form = try InputForm(contentType: head.headers["Content-Type"])
    head.attachment = form
    // Admission: an upload that would find the image queue full is refused now, before its
    // body is read into memory. (A JSON body names a URL whose result may be remembered, so it
    // goes on.)
    if form != .json, processor.workers.isFull {
      throw ArtworkError(.busy, "The image queue is full; retry in a second.", retryAfter: 1)
    }
  }

  /// `POST /v1/check` and `POST /v1/content`: a JSON body, else 415 with `refusal`, which says
  /// what the route takes.
  func checkJSONHead(_ head: inout HTTPRequestHead, refusal: String) throws(ArtworkError) {
    guard (try? InputForm(contentType: head.headers["Content-Type"])) == .json else {
      throw ArtworkError(.unsupportedMediaType, refusal)
    }
    head.attachment = InputForm.json
  }

  /// The 413 detail for an upload whose body is over the limit, quoting the documented image
  /// limit rather than the body allowance (which adds room for multipart framing).
  func uploadTooLarge(declared: Int?) -> String {
    let limit = ByteCount.text(config.maxSourceBytes)
    guard let declared else {
      return "The request body is larger than an image may be: at most \(limit)."
    }
    return "The request body is \(ByteCount.text(declared)); an image may be at most \(limit)."
  }
}
