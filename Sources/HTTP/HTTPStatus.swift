import ArtworkCore

/// Reason phrases for the status codes the server writes (the table is `ReasonPhrase`).
enum HTTPStatus {
  /// The standard reason phrase for `status`, or "Status" when unknown.
  static func reason(_ status: Int) -> String { ReasonPhrase.known(status) ?? "Status" }
}
