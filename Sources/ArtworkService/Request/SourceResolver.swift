/// Source bytes ready for the pipeline, wherever they came from.
struct SourceBytes: Sendable {
  var bytes: [UInt8]
  /// The media type the client or the origin declared (lowercased essence).
  var declaredType: String?
  /// The URL the bytes were fetched from, echoed as `source.url`.
  var url: String?
}

/// Turns a request's source into bytes: an upload as it is, a URL through the safe fetcher.
struct SourceResolver: Sendable {
  init(config: ServiceConfig, logger: Logger) throws(ArtworkError) {}

  func bytes(for source: SourceInput) async throws(ArtworkError) -> SourceBytes {
    switch source {
    case .upload(let bytes, let declaredType):
      return SourceBytes(bytes: bytes, declaredType: declaredType, url: nil)
    case .url:
      throw ArtworkError(.badRequest, "URL sources are not available in this build.")
    }
  }
}
