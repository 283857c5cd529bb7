import ArtworkCore
import HTTP

extension ArtworkApp {
  /// Write endpoints, first of all: the bearer token (401), which names the caller (the head
  /// carries the name to the access log and the metrics), then the caller's rate (429). The
  /// body's declared size comes next (the HTTP layer's check against the route's limit: 413,
  /// `uploadTooLarge` its detail).
  func checkCredentials(_ head: inout HTTPRequestHead) throws(ArtworkError) {
    let caller = try authenticator.authenticate(head.headers["Authorization"])
    head.caller = caller.name
    if let refusal = authenticator.overLimit(caller) {
      metrics.recordRateLimited(caller: caller.name)
      throw refusal
    }
  }

  /// `POST /v1/artwork` and `POST /v1/thumbhash`, from the head alone, before any body byte is
  /// read: the input form (415), then an upload's admission to the image workers (503 when the
  /// workers and their queue are spoken for). The admission is held until its image is rendered, so
  /// upload bodies in memory never outnumber what the workers and the queue can take.
  func checkUploadHead(_ head: HTTPRequestHead) throws(ArtworkError) -> WriteContext {
    let form = try InputForm(contentType: head.headers["Content-Type"])
    // A JSON body names a URL whose result may be remembered: it is admitted when its image
    // has been fetched.
    guard form != .json else { return WriteContext(form: form) }
    guard let admission = processor.workers.admit() else {
      throw ArtworkError(.busy, "The image queue is full; retry in a second.", retryAfter: 1)
    }
    return WriteContext(form: form, admission: admission)
  }

  /// `POST /v1/check` and `POST /v1/content`: a JSON body, else 415 with `refusal`, which says
  /// what the route takes.
  func checkJSONHead(_ head: HTTPRequestHead, refusal: String) throws(ArtworkError)
    -> WriteContext
  {
    guard (try? InputForm(contentType: head.headers["Content-Type"])) == .json else {
      throw ArtworkError(.unsupportedMediaType, refusal)
    }
    return WriteContext(form: .json)
  }

  /// The 413 detail for an upload whose body is over the limit, quoting the documented image
  /// limit rather than the body allowance (which adds room for multipart framing).
  func uploadTooLarge(declared: Int?) -> String {
    let limit = ByteCount.text(config.maxSourceBytes)
    let setting = "(ARTWORK_MAX_SOURCE_BYTES; the upload's form framing is allowed on top)"
    guard let declared else {
      return "The uploaded body is larger than an image may be: at most \(limit) \(setting)."
    }
    return
      "The uploaded body is \(ByteCount.text(declared)); an image may be at most \(limit) \(setting)."
  }
}
