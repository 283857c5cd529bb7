import ArtworkService
import Observability

/// The `artwork` command: `serve`, `health`, `process`, `thumbhash`, `decode`, `version`, `help`.
///
/// This type only dispatches: it picks the subcommand named by the first word from `commands`,
/// parses the rest with that command's options, answers `help` and `--help` from the commands'
/// own texts, and reports a command line that cannot run.
///
/// Exit statuses: 0 success, 1 a failure of the work itself (each reported on standard error),
/// 2 a command line that cannot run (one line naming the problem, then where help is).
public enum ArtworkCommand {
  /// Every subcommand, in the order the usage screen lists them.
  static var commands: [any Subcommand.Type] {
    [
      ServeCommand.self, HealthCommand.self, ProcessCommand.self, ThumbHashCommand.self,
      DecodeCommand.self, VersionCommand.self,
    ]
  }

  /// Runs the command line; returns the process exit status.
  public static func run(_ arguments: [String], environment: [String: String]) async -> Int32 {
    // Log lines go out through a buffer: every one of them before the process exits.
    defer { Logger.flush() }
    do throws(UsageError) {
      guard let word = arguments.first else { throw UsageError(nil, "no command given") }
      let rest = Array(arguments.dropFirst())
      if ["help", "--help", "-h"].contains(word) { return try showHelp(rest) }
      guard let command = commands.first(where: { $0.name == word || $0.aliases.contains(word) })
      else {
        if word.hasPrefix("-") { throw UsageError(nil, "unknown option \(word)") }
        throw UsageError(nil, "unknown command '\(word)'")
      }
      let parsed = try ParsedArguments(
        rest, command: command.name, valued: command.valued, flags: command.flags)
      guard !parsed.wantsHelp else {
        Console.printOut(command.help)
        return 0
      }
      return try await command.run(parsed, environment: environment)
    } catch {
      Console.printError(error.message)
      return 2
    }
  }

  /// `artwork help [COMMAND]`: the usage, or one command's help.
  static func showHelp(_ arguments: [String]) throws(UsageError) -> Int32 {
    guard let name = arguments.first else {
      Console.printOut(usage)
      return 0
    }
    guard arguments.count == 1 else { throw UsageError("help", "help takes one COMMAND") }
    if name == "help" {
      Console.printOut(usage)
      return 0
    }
    guard let command = commands.first(where: { $0.name == name }) else {
      throw UsageError("help", "unknown command '\(name)'")
    }
    Console.printOut(command.help)
    return 0
  }

  /// `artwork help`: every command in one screen, each command's line built from its
  /// `synopsis` and `summary`, then `help`'s own.
  static var usage: String {
    let rows =
      commands.map { ($0.synopsis, $0.summary) } + [
        ("help [COMMAND]", "Show help (also: artwork COMMAND --help)")
      ]
    return """
      artwork: phone-ready hosted artwork and ThumbHash for push relays

      Usage:
      \(rows.map { usageLine(synopsis: $0, summary: $1) }.joined())
      Options may come before or after the other arguments, as --name value or --name=value;
      -- ends the options. Exit status: 0 success, 1 failure, 2 usage error.

      """
  }

  /// Where a summary starts in the usage screen, counted from the start of the line.
  private static let summaryColumn = 38

  /// One command's lines in the usage screen, each ending in a newline: `  artwork SYNOPSIS`,
  /// then the summary in its column, on the same line when the synopsis leaves room.
  private static func usageLine(synopsis: String, summary: String) -> String {
    let command = "  artwork \(synopsis)"
    let indent = String(repeating: " ", count: summaryColumn)
    var lines = summary.split(separator: "\n").map { indent + $0 }
    if command.count < summaryColumn, !lines.isEmpty {
      lines[0] = command + lines[0].dropFirst(command.count)
    } else {
      lines.insert(command, at: 0)
    }
    return lines.map { $0 + "\n" }.joined()
  }
}
