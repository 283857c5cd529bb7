import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What the batch commands (`process`, `thumbhash`) share on their command lines: inputs,
/// jobs, progress.
struct BatchSettings {
  var inputs: [BatchInput]
  var jobs: Int
  var progress: Bool

  /// The options both commands take, with their values.
  static let valued: Set<String> = ["--jobs", "--from", "--progress"]

  /// Reads `--jobs N` (default: the number of cores), `--progress auto|always|never` (auto:
  /// when standard error is a terminal), and the inputs (operands and `--from` lists).
  init(_ parsed: ParsedArguments, command: String) throws(UsageError) {
    if let text = parsed["--jobs"] {
      guard let number = Int(text), (1...256).contains(number) else {
        throw UsageError(command, "--jobs \(text) is not a number from 1 to 256")
      }
      jobs = number
    } else {
      jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    }
    switch parsed["--progress"] ?? "auto" {
    case "auto": progress = isatty(2) == 1
    case "always": progress = true
    case "never": progress = false
    case let other:
      throw UsageError(command, "--progress \(other) is not one of auto, always, never")
    }
    guard !parsed.operands.isEmpty || parsed["--from"] != nil else {
      throw UsageError(command, "an INPUT is required (a file, a directory, a URL or -)")
    }
    inputs = try BatchInput.expand(
      parsed.operands, from: parsed["--from"].map { [$0] } ?? [], command: command)
  }
}
