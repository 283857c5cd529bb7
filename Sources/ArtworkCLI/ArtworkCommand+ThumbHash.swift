import ArtworkCore
import ArtworkService
import ImageWorkers
import Imaging

extension ArtworkCommand {
  /// `artwork thumbhash [--json] [--jobs N] INPUT...`: the ThumbHash of every input, as
  /// `POST /v1/thumbhash` computes it.
  static func thumbhash(_ arguments: [String], environment: [String: String])
    async throws(UsageError) -> Int32
  {
    guard
      let parsed = try parse(
        arguments, command: "thumbhash", valued: BatchSettings.valued, flags: ["--json"])
    else { return 0 }
    let settings = try BatchSettings(parsed, command: "thumbhash")
    let config = try sourceConfig("thumbhash", environment: environment)
    Runtime.initialize()
    let loader: SourceLoader
    do {
      loader = try batchLoader(config, jobs: settings.jobs, sizeLimit: true)
    } catch {
      printError("artwork thumbhash: \(error.detail)")
      return 1
    }
    let json = parsed.has("--json")
    // The tab-separated lines come in input order, as they always have; JSON lines as they
    // finish.
    var waiting: [Int: BatchResult] = [:]
    var nextIndex = 0
    return await runBatch("thumbhash", settings) { (input) throws(ArtworkError) in
      let source = try await loader.load(input)
      let computed = try await loader.processor.thumbHash(
        source.bytes, declaredType: source.declaredType)
      guard case .object(let members) = ArtworkApp.thumbHashJSON(computed, sourceURL: source.url)
      else { return [] }
      return members
    } emit: { result in
      if json {
        printOut(result.line + "\n")
        return
      }
      waiting[result.index] = result
      while let ready = waiting.removeValue(forKey: nextIndex) {
        nextIndex += 1
        switch ready.outcome {
        case .success(let members):
          let hash = members.first { $0.0 == "thumbhash" }.map(\.1)
          if case .string(let text) = hash { printOut("\(text)\t\(ready.input)\n") }
        case .failure(let error):
          printError("artwork thumbhash: \(ready.input): \(error.detail)")
        }
      }
    }
  }
}
