import ArtworkCore
import ArtworkService

/// `artwork thumbhash [--json] [--jobs N] INPUT...`: the ThumbHash of every input, as
/// `POST /v1/thumbhash` computes it.
enum ThumbHashCommand: BatchCommand {
  static let name = "thumbhash"
  static let synopsis = "thumbhash [--json] INPUT..."
  static let summary = "Print each input's ThumbHash (base64), a tab, the input"
  static let valued = BatchSettings.valued
  static let flags: Set<String> = ["--json"]
  static let help = """
    artwork thumbhash [--json] [--jobs N] [--from FILE] INPUT...

    Prints the ThumbHash of every INPUT (files, directories, URLs or -, as for artwork process),
    computed as POST /v1/thumbhash does, with the service's limits. By default one line per
    input that succeeded, in input order: the ThumbHash in padded base64, a tab, the input;
    each failure is reported on standard error. With --json, one JSON line per input in
    completion order: {"input", "ok": true, "thumbhash", "width", "height", "average_color",
    "aspect_ratio", "source"} or {"input", "ok": false, "problem"}.

    Images of at most 100x100 pixels are hashed pixel for pixel; larger ones are downscaled to
    fit 100x100. Exit status: 0 all succeeded, 1 any failed, 2 usage error, 130 interrupted.

    """

  static func run(_ parsed: ParsedArguments, environment: [String: String])
    async throws(UsageError) -> Int32
  {
    let settings = try BatchSettings(parsed, command: name)
    let config = try sourceConfig(environment: environment)
    Runtime.initialize()
    let loader: SourceLoader
    do {
      loader = try self.loader(config, jobs: settings.jobs, sizeLimit: true)
    } catch {
      Console.printError("artwork thumbhash: \(error.detail)")
      return 1
    }
    let json = parsed.has("--json")
    // The tab-separated lines come in input order, as they always have; JSON lines as they
    // finish.
    var waiting: [Int: BatchResult] = [:]
    var nextIndex = 0
    return await runBatch(settings) { (input) throws(ArtworkError) in
      let source = try await loader.load(input)
      let computed = try await loader.processor.thumbHash(
        source.bytes, declaredType: source.declaredType)
      guard case .object(let members) = AnswerJSON.thumbHash(computed, sourceURL: source.url)
      else { return [] }
      return members
    } emit: { result in
      if json {
        Console.printOut(result.line + "\n")
        return
      }
      waiting[result.index] = result
      while let ready = waiting.removeValue(forKey: nextIndex) {
        nextIndex += 1
        switch ready.outcome {
        case .success(let members):
          let hash = members.first { $0.0 == "thumbhash" }.map(\.1)
          if case .string(let text) = hash { Console.printOut("\(text)\t\(ready.input)\n") }
        case .failure(let error):
          Console.printError("artwork thumbhash: \(ready.input): \(error.detail)")
        }
      }
    }
  }
}
