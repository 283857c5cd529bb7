import ArtworkCore
import ThumbHashCodec

extension ArtworkCommand {
  /// `artwork decode HASH -o FILE.png` (`-o -`: standard output; see `OutputFile`)
  static func decode(_ arguments: [String]) throws(UsageError) -> Int32 {
    guard let parsed = try parse(arguments, command: "decode", valued: ["-o", "--out"]) else {
      return 0
    }
    guard let path = parsed["-o"] ?? parsed["--out"] else {
      throw UsageError("decode", "-o FILE.png is required")
    }
    guard parsed.operands.count == 1, let text = parsed.operands.first else {
      throw UsageError(
        "decode", parsed.operands.isEmpty ? "a HASH is required" : "decode takes one HASH")
    }
    let png: [UInt8]
    do {
      png = ThumbHash.pngData(try ThumbHash.decode(try ThumbHashBase64.decode(text)))
    } catch {
      printError("artwork decode: \(text) is not a valid ThumbHash: \(error)")
      return 1
    }
    do {
      try OutputFile.write(path, png)
    } catch {
      printError("artwork decode: \(error.detail)")
      return 1
    }
    return 0
  }
}
