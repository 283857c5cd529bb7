import ArtworkCore
import HTTP
import WorkerHost

/// The head checks of the write routes, before any body byte is read: what the body's form
/// must be, and whether an upload's job would find a place among the image workers.
enum BodyCheck {
  /// `POST /v1/artwork` and `POST /v1/thumbhash`: the input form (415), then, for an upload,
  /// whether the image workers would take its caller's job now (503 when the queue is full of
  /// jobs this caller could not take the place of). The job is queued once the body is in: a
  /// body on its way holds a place among its caller's arriving bodies (`BodyBudget`), never a
  /// worker's, so a slow body delays no one else's image.
  static func upload(_ head: HTTPRequestHead, workers: WorkerPool) throws(ArtworkError)
    -> WriteContext
  {
    let form = try InputForm(contentType: head.headers["Content-Type"])
    // A JSON body names a URL whose result may be remembered: its job is queued when its image
    // has been fetched.
    guard form != .json else { return WriteContext(form: form) }
    try admitting(head, workers: workers)
    return WriteContext(form: form)
  }

  /// Refuses (503) an upload of `head`'s caller whose job the image workers would not take now.
  static func admitting(_ head: HTTPRequestHead, workers: WorkerPool) throws(ArtworkError) {
    guard workers.wouldAccept(share: CallerShare.of(head)) else {
      throw ArtworkError(.busy, "The image queue is full; retry in a second.", retryAfter: 1)
    }
  }

  /// `POST /v1/check` and `POST /v1/content`: a JSON body, else 415 with `refusal`, which says
  /// what the route takes.
  static func json(_ head: HTTPRequestHead, refusal: String) throws(ArtworkError)
    -> WriteContext
  {
    guard (try? InputForm(contentType: head.headers["Content-Type"])) == .json else {
      throw ArtworkError(.unsupportedMediaType, refusal)
    }
    return WriteContext(form: .json)
  }
}

/// The largest request body a POST with an image may have: the image limit plus room for
/// multipart framing. Larger bodies are refused with 413 before they are read.
struct UploadLimit: Sendable {
  /// `ARTWORK_MAX_SOURCE_BYTES`.
  let maxSourceBytes: Int

  var bodyBytes: Int { maxSourceBytes + ServiceConfig.formOverhead }

  /// The 413 detail for an upload whose body is over the limit, quoting the documented image
  /// limit rather than the body allowance (which adds room for multipart framing).
  func tooLarge(declared: Int?) -> String {
    let limit = ByteCount.text(maxSourceBytes)
    let setting = "(ARTWORK_MAX_SOURCE_BYTES; the upload's form framing is allowed on top)"
    guard let declared else {
      return "The uploaded body is larger than an image may be: at most \(limit) \(setting)."
    }
    return
      "The uploaded body is \(ByteCount.text(declared)); an image may be at most \(limit) \(setting)."
  }
}
