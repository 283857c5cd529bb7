import ArtworkCore

/// A job's failure as a worker reports it: a code, and the words for the client and for the
/// log. The code alone decides what the service answers (`WorkerPool`); the words are passed
/// on, never searched.
struct JobFailure: Sendable, Equatable {
  /// What went wrong. Never `crash`: a worker that crashed says nothing.
  var code: DecoderFailure
  /// The sentence for the client (`ArtworkError.detail`).
  var detail: String
  /// Library messages for the log (`ArtworkError.internalDetail`).
  var internalDetail: String?
}
