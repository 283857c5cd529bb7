/// A command line the `artwork` command cannot run: the problem, and the command whose help
/// explains the right form. Reported as two lines on standard error, with exit status 2.
struct UsageError: Error, Equatable {
  /// The command the problem is in (`process`), or nil for the command line as a whole.
  var command: String?
  /// What is wrong, in one line (`--out DIR is required`).
  var problem: String

  init(_ command: String?, _ problem: String) {
    self.command = command
    self.problem = problem
  }

  /// `artwork process: --out DIR is required`, then where the usage is explained.
  var message: String {
    let name = command.map { "artwork \($0)" } ?? "artwork"
    let help = command.map { "artwork help \($0)" } ?? "artwork help"
    return "\(name): \(problem)\nRun '\(help)' for usage."
  }
}
