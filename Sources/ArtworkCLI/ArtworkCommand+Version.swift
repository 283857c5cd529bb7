import ArtworkCore
import Imaging

extension ArtworkCommand {
  /// `artwork version` (or `artwork --version`): this build's version and libvips'.
  static func version(_ arguments: [String], command: String) throws(UsageError) -> Int32 {
    guard let parsed = try parse(arguments, command: "version") else { return 0 }
    guard parsed.operands.isEmpty else {
      throw UsageError("version", "unexpected argument '\(parsed.operands[0])'")
    }
    printOut("artwork \(BuildInfo.version)\nlibvips \(Vips.version)\n")
    return 0
  }
}
