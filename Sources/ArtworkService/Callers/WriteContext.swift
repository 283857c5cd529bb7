import ImageWorkers

/// What the head check of a write route found, handed to the route's later steps as it is: the
/// body's form, an upload's admission to the image workers (held until its image is rendered, so
/// the bodies waiting for a worker are bounded by what the workers and their queue can take),
/// and, once the fast path has parsed it, the request itself.
struct WriteContext: Sendable {
  /// How the body carries its image (the request's one content-type check).
  var form: InputForm
  /// An upload's place among the image workers' jobs (nil for a URL, which may be answered
  /// from memory and is admitted when its image is fetched).
  var admission: WorkerPool.Admission?
  /// The request as the fast path parsed it (`answerFromMemory`), so the handler does not
  /// parse it again.
  var parsed: ArtworkRequest?

  init(form: InputForm, admission: WorkerPool.Admission? = nil) {
    self.form = form
    self.admission = admission
  }
}
