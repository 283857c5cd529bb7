import ArtworkCore
import ArtworkService
import Foundation
import Imaging

extension ArtworkCommand {
  /// `artwork process FILE --shape poster --size 400 --crop attention --out DIR`
  static func process(_ arguments: [String], environment: [String: String])
    async throws(UsageError) -> Int32
  {
    guard
      let parsed = try parse(
        arguments, command: "process", valued: ["--shape", "--size", "--crop", "--out"],
        flags: ["--no-size-limit"])
    else { return 0 }
    guard let outDirectory = parsed["--out"] else {
      throw UsageError("process", "--out DIR is required")
    }
    guard parsed.operands.count == 1, let file = parsed.operands.first else {
      throw UsageError(
        "process", parsed.operands.isEmpty ? "a FILE is required" : "process takes one FILE")
    }
    var fields: [String: String] = [:]
    for name in ["shape", "size", "crop"] { fields[name] = parsed["--\(name)"] }
    let config = try sourceConfig("process", environment: environment)
    Runtime.initialize()
    let processor = processor(config, threads: 1, sizeLimit: !parsed.has("--no-size-limit"))
    do {
      let options = try ArtworkOptions(fields: fields)
      let bytes = try LocalFile.read(file, checkSize: processor.checkSize)
      let created = try await processor.render(bytes, declaredType: nil, options: options)
      try LocalFile.makeDirectory(outDirectory)
      let path = URL(fileURLWithPath: outDirectory).appendingPathComponent(created.key.fileName)
        .path
      try LocalFile.writeAtomically(path, created.rendered.bytes)
      let json = ArtworkApp.artworkJSON(
        ArtworkAnswer(created, shape: options.shape), location: path, sourceURL: nil)
      printOut(json.text + "\n")
      return 0
    } catch {
      printError("artwork process: \(file): \(error.detail)")
      return 1
    }
  }
}
