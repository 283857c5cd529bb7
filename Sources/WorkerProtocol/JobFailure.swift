import ArtworkCore

/// A job's failure as a worker reports it: a code, and the words for the client and for the
/// log. The code alone decides what the service answers (`WorkerPool`); the words are passed
/// on, never searched.
package struct JobFailure: Sendable, Equatable {
  /// What went wrong. Never `crash`: a worker that crashed says nothing.
  package var code: DecoderFailure
  /// The sentence for the client (`ArtworkError.detail`).
  package var detail: String
  /// Library messages for the log (`ArtworkError.internalDetail`).
  package var internalDetail: String?

  package init(code: DecoderFailure, detail: String, internalDetail: String?) {
    self.code = code
    self.detail = detail
    self.internalDetail = internalDetail
  }
}
