import ArtworkCore
import ArtworkService
import Imaging

extension ArtworkCommand {
  /// `artwork thumbhash FILE...`
  static func thumbhash(_ arguments: [String], environment: [String: String])
    async throws(UsageError) -> Int32
  {
    guard let parsed = try parse(arguments, command: "thumbhash") else { return 0 }
    guard !parsed.operands.isEmpty else { throw UsageError("thumbhash", "a FILE is required") }
    let config = try sourceConfig("thumbhash", environment: environment)
    Runtime.initialize()
    let processor = processor(config, threads: 1)
    var failed = false
    for path in parsed.operands {
      do {
        let bytes = try LocalFile.read(path, checkSize: processor.checkSize)
        let computed = try await processor.thumbHash(bytes, declaredType: nil)
        printOut("\(computed.thumbHash)\t\(path)\n")
      } catch {
        failed = true
        printError("artwork thumbhash: \(path): \(error.detail)")
      }
    }
    return failed ? 1 : 0
  }
}
