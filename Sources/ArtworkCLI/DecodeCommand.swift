import ArtworkCore
import ThumbHashCodec

/// `artwork decode HASH -o FILE.png` (`-o -`: standard output; see `OutputFile`).
enum DecodeCommand: Subcommand {
  static let name = "decode"
  static let synopsis = "decode HASH -o FILE.png"
  static let summary = "Render a ThumbHash as a PNG placeholder"
  static let valued: Set<String> = ["-o", "--out"]
  static let help = """
    artwork decode HASH -o FILE.png

    Writes the placeholder image a ThumbHash decodes to as a PNG file. -o - writes it to
    standard output; an existing regular file is replaced atomically; a symbolic link, a device
    or a pipe is written through (never replaced); a directory is refused.

    """

  static func run(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError)
    -> Int32
  {
    guard let path = parsed["-o"] ?? parsed["--out"] else {
      throw UsageError(name, "-o FILE.png is required")
    }
    guard parsed.operands.count == 1, let text = parsed.operands.first else {
      throw UsageError(
        name, parsed.operands.isEmpty ? "a HASH is required" : "decode takes one HASH")
    }
    let png: [UInt8]
    do {
      png = ThumbHash.pngData(try ThumbHash.decode(try ThumbHashBase64.decode(text)))
    } catch {
      Console.printError("artwork decode: \(text) is not a valid ThumbHash: \(error)")
      return 1
    }
    do {
      try OutputFile.write(path, png)
    } catch {
      Console.printError("artwork decode: \(error.detail)")
      return 1
    }
    return 0
  }
}
