import ArtworkCore

/// How a worker ended in the middle of a job, and what that is taken to mean.
struct WorkerDeath: Sendable, Equatable, CustomStringConvertible {
  /// What the image made its decoder do.
  var reason: DecoderFailure
  /// The signal that ended it (9 for a kill, 11 for a fault, 4 for a Swift trap...), or nil.
  var signal: Int32?
  /// Its exit status, when it exited instead.
  var exitCode: Int32?
  /// The most memory it held, in bytes (the kernel's count).
  var maxResidentBytes: Int
  /// The last lines it wrote to standard error (a Swift trap's message, say).
  var lastWords: String
  /// What the service saw (`killed at its deadline`, `closed its socket`, `a malformed answer`).
  var how: String

  var description: String {
    var parts = ["\(reason.rawValue): \(how)"]
    if let signal { parts.append("signal \(signal)") }
    if let exitCode { parts.append("exit \(exitCode)") }
    parts.append("max RSS \(maxResidentBytes / 1024) KiB")
    if !lastWords.isEmpty { parts.append("stderr: \(lastWords)") }
    return parts.joined(separator: ", ")
  }

  /// Signs of running out of memory in what a dying worker wrote: the Swift runtime's, glib's
  /// and the C++ runtime's words for a failed allocation.
  static let memoryWords = [
    "Could not allocate memory", "out of memory", "Cannot allocate memory", "failed to allocate",
    "bad_alloc",
  ]

  /// Why a worker that died of `signal` or `exitCode` (not at the service's hand) died:
  /// memory when it said so or had come within a tenth of its limit, else a crash.
  static func reason(lastWords: String, maxResidentBytes: Int, memoryLimit: Int)
    -> DecoderFailure
  {
    if memoryWords.contains(where: { lastWords.contains($0) }) { return .memory }
    if maxResidentBytes >= memoryLimit / 10 * 9 { return .memory }
    return .crash
  }
}
