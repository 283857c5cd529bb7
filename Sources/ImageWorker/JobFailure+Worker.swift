import ArtworkCore
import WorkerProtocol

extension JobFailure {
  /// The failure a worker reports for `error`, met by image work in its own process: the code
  /// from the error's kind, the words as they are.
  init(_ error: ArtworkError) {
    self.init(
      code: Self.code(of: error), detail: error.detail, internalDetail: error.internalDetail)
  }

  /// The code of an error of image work.
  ///
  /// NOTE: the pipeline's one decoder failure is its own deadline (`Deadline.error`), so a
  /// `decoder-failure` here is a timeout. An allocation refused under the worker's memory limit
  /// is the one failure libvips reports in words only (`vips_tracked: out of memory --- size ==
  /// 114MB`, in its error buffer): it has no error codes. Those words are read here, once, in
  /// the process whose allocation failed; what crosses to the service is the code.
  static func code(of error: ArtworkError) -> DecoderFailure {
    switch error.kind {
    case .decoderFailure: .timeout
    case .unsupportedMediaType: .unsupported
    case .unprocessableImage: refusedAllocation(error) ? .memory : .unprocessable
    case .internal: refusedAllocation(error) ? .memory : .internal
    default: .internal
    }
  }

  /// Whether libvips said that it could not allocate memory.
  private static func refusedAllocation(_ error: ArtworkError) -> Bool {
    error.internalDetail?.contains("out of memory") == true
  }
}
