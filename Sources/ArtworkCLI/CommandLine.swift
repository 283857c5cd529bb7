import ArtworkService
import Foundation
import ThumbHashCodec

/// The `artwork` command: `serve`, `health`, `process`, `thumbhash`, `decode`, `version`, `help`.
///
/// Exit statuses: 0 success, 1 a failure of the work itself (each reported on standard error),
/// 2 a command line that cannot run (one line naming the problem, then where help is).
public enum ArtworkCommand {
  /// Runs the command line; returns the process exit status.
  public static func run(_ arguments: [String], environment: [String: String]) async -> Int32 {
    // Log lines go out through a buffer: every one of them before the process exits.
    defer { Logger.flush() }
    do throws(UsageError) {
      guard let command = arguments.first else { throw UsageError(nil, "no command given") }
      let rest = Array(arguments.dropFirst())
      switch command {
      case "serve": return try await serve(rest, environment: environment)
      case "health": return try health(rest, environment: environment)
      case "process": return try await process(rest, environment: environment)
      case "thumbhash": return try await thumbhash(rest, environment: environment)
      case "decode": return try decode(rest)
      case "version", "--version": return try version(rest, command: command)
      case "help", "--help", "-h": return try showHelp(rest)
      default:
        if command.hasPrefix("-") { throw UsageError(nil, "unknown option \(command)") }
        throw UsageError(nil, "unknown command '\(command)'")
      }
    } catch {
      printError(error.message)
      return 2
    }
  }

  /// `artwork help [COMMAND]`: the usage, or one command's help.
  static func showHelp(_ arguments: [String]) throws(UsageError) -> Int32 {
    guard let name = arguments.first else {
      printOut(usage)
      return 0
    }
    guard arguments.count == 1 else { throw UsageError("help", "help takes one COMMAND") }
    guard let text = help[name] else { throw UsageError("help", "unknown command '\(name)'") }
    printOut(text)
    return 0
  }

  /// Parses a command's arguments; nil when `--help` was asked for (and has been printed).
  static func parse(
    _ arguments: [String], command: String, valued: Set<String> = [], flags: Set<String> = []
  ) throws(UsageError) -> ParsedArguments? {
    let parsed = try ParsedArguments(arguments, command: command, valued: valued, flags: flags)
    guard !parsed.wantsHelp else {
      printOut(help[command] ?? usage)
      return nil
    }
    return parsed
  }

  static func printOut(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  static func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }
}
