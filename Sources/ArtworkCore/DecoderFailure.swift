/// How an image made its decoder fail: the `reason` of a `decoder-failure` problem.
public enum DecoderFailure: String, Sendable, Hashable, CaseIterable {
  /// The worker process decoding it crashed (a trap, a fault, an abort: a decoder bug).
  case crash
  /// The work ran past its time limit (then its worker was stopped, whatever it was doing).
  case timeout
  /// The work needed more memory than a worker may use.
  case memory

  /// The problem a client gets. `budget` is the limit that was hit: seconds for `timeout`,
  /// bytes for `memory`; `remembered` says the verdict came from an earlier attempt.
  public func error(budget: Double? = nil, remembered: Bool = false, internalDetail: String? = nil)
    -> ArtworkError
  {
    var detail: String
    switch self {
    case .crash:
      detail =
        "The image made its decoder crash: it is damaged or built to attack decoders, and "
        + "cannot be processed."
    case .timeout:
      let seconds = budget.map { $0 == $0.rounded() ? "\(Int($0))" : "\($0)" } ?? "the allowed"
      detail =
        "The image took longer than \(seconds) seconds to decode and frame; send a "
        + "smaller or simpler image."
    case .memory:
      let bytes = budget.map { ByteCount.text(Int($0)) } ?? "the memory allowed"
      detail = "The image needed more than \(bytes) of memory to decode; send a smaller image."
    }
    if remembered {
      detail += " (This very image failed so a moment ago; it is refused without another try.)"
    }
    return ArtworkError(
      .decoderFailure, detail, internalDetail: internalDetail,
      members: [.string("reason", rawValue)])
  }
}
