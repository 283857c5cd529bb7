import ArtworkService
import Foundation
import ThumbHashCodec

/// The `artwork` command: `serve`, `thumbhash`, `decode`, `process`.
public enum ArtworkCommand {
  static let usage = """
    artwork: phone-ready hosted artwork and ThumbHash for push relays

    Usage:
      artwork serve                       Run the HTTP service (configured by ARTWORK_* variables)
      artwork thumbhash FILE...           Print each file's ThumbHash (base64), a tab, its path
      artwork decode HASH -o FILE.png     Render a ThumbHash as a PNG placeholder
      artwork process FILE [--shape square|poster|circle] [--size N] [--crop attention|centre] --out DIR
                                          Run the service's pipeline on FILE, store into DIR, print JSON
      artwork help [COMMAND]              Show help

    """

  static let help: [String: String] = [
    "serve": """
    artwork serve

    Runs the HTTP service. Configuration comes from the environment only, in the variables
    below. Every bad variable is reported at once and the command exits with status 2. SIGTERM
    or SIGINT stop accepting connections, finish in-flight requests within
    ARTWORK_SHUTDOWN_GRACE and exit 0.

    """ + ServiceConfig.markdownTable(),
    "thumbhash": """
    artwork thumbhash FILE...

    Prints one line per file: the ThumbHash in padded base64, a tab, the path. Images of at most
    100x100 pixels are hashed pixel for pixel; larger ones are downscaled to fit 100x100.
    Exits 1 if any file failed (each failure is reported on stderr).

    """,
    "decode": """
    artwork decode HASH -o FILE.png

    Writes the placeholder image a ThumbHash decodes to as a PNG file.

    """,
    "process": """
    artwork process FILE [--shape square|poster|circle] [--size N] [--crop attention|centre] --out DIR

    Runs the same checks and pipeline as POST /v1/artwork and stores the result in DIR as
    {sha256}.{jpg|png}. Prints the same JSON as the service, with the file's path as image_url.

    """,
  ]

  /// Runs the command line; returns the process exit status.
  public static func run(_ arguments: [String], environment: [String: String]) async -> Int32 {
    var arguments = arguments
    guard !arguments.isEmpty else {
      printError(usage)
      return 2
    }
    let command = arguments.removeFirst()
    if arguments.contains("--help") || arguments.contains("-h") {
      printOut(help[command] ?? usage)
      return 0
    }
    switch command {
    case "serve": return await serve(environment: environment)
    case "thumbhash": return thumbhash(files: arguments)
    case "decode": return decode(arguments)
    case "process": return await process(arguments)
    case "help", "--help", "-h":
      printOut(arguments.first.flatMap { help[$0] } ?? usage)
      return 0
    default:
      printError("artwork: unknown command \(command)\n\n\(usage)")
      return 2
    }
  }

  static func printOut(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  static func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }
}
