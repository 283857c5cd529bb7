/// What the head check of a write route found, handed to the route's later steps as it is: the
/// body's form and, once the fast path has parsed it, the request itself.
struct WriteContext: Sendable {
  /// How the body carries its image (the request's one content-type check).
  var form: InputForm
  /// The request as the fast path parsed it (`answerFromMemory`), so the handler does not
  /// parse it again.
  var parsed: ArtworkRequest?

  init(form: InputForm) {
    self.form = form
  }
}
