import Foundation

/// Where the commands write: standard output for their results, standard error for reports.
///
/// NOTE: `stdout` and `stderr` are not concurrency-safe globals in Swift 6 on Linux, so every
/// write goes through `FileHandle`.
enum Console {
  /// Writes `text` to standard output as it is.
  static func printOut(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// Writes `text` to standard error as one line (a newline added unless it ends with one).
  static func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }

  /// Writes `text` to standard error as it is (no newline added): a progress line redrawn in
  /// place.
  static func printRaw(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
