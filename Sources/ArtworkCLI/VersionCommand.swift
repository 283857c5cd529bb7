import ArtworkCore
import Imaging

/// `artwork version` (or `artwork --version`): this build's version and libvips'.
enum VersionCommand: Subcommand {
  static let name = "version"
  static let aliases: Set<String> = ["--version"]
  static let synopsis = "version"
  static let summary = "Print the version (also: artwork --version)"
  static let help = """
    artwork version

    Prints the version of artwork and of the libvips it runs with (also: artwork --version).

    """

  static func run(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError)
    -> Int32
  {
    guard parsed.operands.isEmpty else { throw unexpected(parsed.operands[0]) }
    Console.printOut("artwork \(BuildInfo.version)\nlibvips \(Vips.version)\n")
    return 0
  }
}
