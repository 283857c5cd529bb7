extension ImageFormat {
  /// The format of an input of `count` bytes whose first bytes are `prefix` (a few hundred are
  /// enough), or the refusal a client gets: a 422 for no bytes, a 415 for bytes of no format
  /// accepted. Stage 1 of the pipeline, and the service's own check before a worker is used.
  package static func sniffed(prefix: [UInt8], count: Int) throws(ArtworkError) -> ImageFormat {
    guard count > 0 else {
      throw ArtworkError(.unprocessableImage, "The image is empty (zero bytes).")
    }
    guard let format = sniff(prefix) else {
      throw ArtworkError(
        .unsupportedMediaType,
        "The data is not a JPEG, PNG, WebP, GIF, HEIC or AVIF image (judged by its first bytes).")
    }
    return format
  }
}
