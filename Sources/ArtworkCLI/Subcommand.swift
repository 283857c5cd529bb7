/// One subcommand of `artwork` (`serve`, `process`...): its name, what `artwork help` says of
/// it, the options it takes, and its work.
///
/// `ArtworkCommand` keeps a table of these types: it picks one by the first word of the command
/// line, parses the rest with the type's options (printing `help` for `--help`), builds the usage
/// screen from every type's `synopsis` and `summary`, and turns a `UsageError` into exit status 2.
/// A subcommand holds only what its own work needs.
protocol Subcommand {
  /// The word that names the command on the command line (`process`).
  static var name: String { get }
  /// Other words that run the command (`--version`); `artwork help` knows it by `name` only.
  static var aliases: Set<String> { get }
  /// The command's form in the usage screen, after `artwork ` (`decode HASH -o FILE.png`).
  static var synopsis: String { get }
  /// What the command does, in the usage screen's second column; a `\n` breaks it into lines,
  /// each continued in that column.
  static var summary: String { get }
  /// The command's own help, for `artwork help NAME` and `artwork NAME --help`.
  static var help: String { get }
  /// The options that take a value, with their dashes (`--out`).
  static var valued: Set<String> { get }
  /// The options that take no value, with their dashes (`--resume`).
  static var flags: Set<String> { get }

  /// Does the command's work with its parsed arguments and the process environment; returns
  /// the exit status (0 success, 1 a failure of the work, reported on standard error). A
  /// command line that cannot run throws instead.
  static func run(_ parsed: ParsedArguments, environment: [String: String])
    async throws(UsageError) -> Int32
}

extension Subcommand {
  static var aliases: Set<String> { [] }
  static var valued: Set<String> { [] }
  static var flags: Set<String> { [] }

  /// The usage error for an operand a command without operands was given.
  static func unexpected(_ operand: String) -> UsageError {
    UsageError(name, "unexpected argument '\(operand)'")
  }
}
