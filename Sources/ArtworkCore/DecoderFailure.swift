/// How image work failed, as a code rather than words: what a worker reports in its `failed`
/// answer, and what the service makes of a worker's death.
///
/// A worker reports `unprocessable`, `unsupported`, `timeout` (its own time budget), `memory`
/// (an allocation refused under its limit) or `internal`; it cannot report `crash`, which only
/// the service can tell, from the worker's wait status. `crash`, `timeout` and `memory` are the
/// `reason` of a `decoder-failure` problem (`isDecoderFailure`).
///
/// The raw value is the code's stable name: on the worker protocol, in logs and metrics, and in
/// the problem document.
public enum DecoderFailure: String, Sendable, Hashable, CaseIterable {
  /// The worker process decoding it crashed (a trap, a fault, an abort: a decoder bug), exited
  /// or broke the protocol in the middle of the job. A worker killed from outside the service
  /// is not the image's doing (`WorkerDeath.verdict`).
  case crash
  /// The work ran past its time limit having had the CPU time to use it (then its worker was
  /// stopped, whatever it was doing).
  case timeout
  /// The work needed more memory than a worker may use.
  case memory
  /// The data cannot be framed: damaged, truncated, not what its first bytes say, or over the
  /// limits on pixels and sides (the worker's words say which).
  case unprocessable
  /// The data is not in a format the service reads.
  case unsupported
  /// The worker's own handling failed (its input could not be mapped, its output not written),
  /// or a library call failed for a reason that is not the image's.
  case `internal`

  /// Whether the image made its decoder fail (`crash`, `timeout`, `memory`): a
  /// `decoder-failure` problem, with this code as its `reason`.
  public var isDecoderFailure: Bool {
    switch self {
    case .crash, .timeout, .memory: true
    case .unprocessable, .unsupported, .internal: false
    }
  }

  /// The kind of problem a failure of this code is answered with.
  public var kind: ArtworkError.Kind {
    switch self {
    case .crash, .timeout, .memory: .decoderFailure
    case .unprocessable: .unprocessableImage
    case .unsupported: .unsupportedMediaType
    case .internal: .internal
    }
  }

  /// The problem a client gets. `budget` is the limit that was hit: seconds for `timeout`,
  /// bytes for `memory`; `remembered` says the verdict came from an earlier attempt. The codes
  /// that are not decoder failures get a general sentence: a worker's own words for them are
  /// better, and travel beside the code (`JobFailure`).
  public func error(budget: Double? = nil, remembered: Bool = false, internalDetail: String? = nil)
    -> ArtworkError
  {
    var detail: String
    switch self {
    case .crash:
      detail =
        "The image made its decoder crash (the worker process decoding it died of a fault of "
        + "its own code); it cannot be processed."
    case .timeout:
      let seconds = budget.map { $0 == $0.rounded() ? "\(Int($0))" : "\($0)" } ?? "the allowed"
      detail =
        "The image took longer than \(seconds) seconds to decode and frame; send a "
        + "smaller or simpler image."
    case .memory:
      let bytes = budget.map { ByteCount.text(Int($0)) } ?? "the memory allowed"
      detail = "The image needed more than \(bytes) of memory to decode; send a smaller image."
    case .unprocessable: detail = "The image could not be decoded."
    case .unsupported: detail = "The data is not an image in a format the service reads."
    case .internal: detail = "The image could not be processed."
    }
    if remembered {
      detail += " (This very image failed so a moment ago; it is refused without another try.)"
    }
    return ArtworkError(
      kind, detail, internalDetail: internalDetail,
      members: isDecoderFailure ? [.string("reason", rawValue)] : [])
  }
}
