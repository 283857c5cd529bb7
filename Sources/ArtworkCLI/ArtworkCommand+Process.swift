import ArtworkCore
import ArtworkService
import Foundation
import Imaging

extension ArtworkCommand {
  /// `artwork process [options] INPUT...`: every input through the service's checks and
  /// pipeline in this process, stored content-addressed in `--out`, one JSON line each.
  static func process(_ arguments: [String], environment: [String: String])
    async throws(UsageError) -> Int32
  {
    guard
      let parsed = try parse(
        arguments, command: "process",
        valued: BatchSettings.valued.union(["--shape", "--size", "--crop", "--out", "--jsonl"]),
        flags: ["--resume", "--no-size-limit"])
    else { return 0 }
    guard let outDirectory = parsed["--out"] else {
      throw UsageError("process", "--out DIR is required")
    }
    var fields: [String: String] = [:]
    for name in ["shape", "size", "crop"] { fields[name] = parsed["--\(name)"] }
    let options: ArtworkOptions
    do {
      options = try ArtworkOptions(fields: fields)
    } catch {
      throw UsageError("process", error.detail)
    }
    let jsonl = parsed["--jsonl"]
    let resume = parsed.has("--resume")
    if resume && jsonl == nil { throw UsageError("process", "--resume needs --jsonl FILE") }
    if resume && jsonl == "-" {
      throw UsageError("process", "--resume needs a --jsonl FILE to read back, not standard output")
    }
    let settings = try BatchSettings(parsed, command: "process")
    let config = try sourceConfig("process", environment: environment)

    Runtime.initialize()
    let loader: SourceLoader
    let writer: LineWriter
    let skipped: Set<String>
    do {
      try LocalFile.makeDirectory(outDirectory)
      skipped = try resume ? ResumeLog.succeeded(in: jsonl!) : []
      writer =
        try jsonl.map { (path) throws(ArtworkError) in
          try LineWriter.appending(to: path, fresh: !resume)
        } ?? .standardOutput
      loader = try batchLoader(
        config, jobs: settings.jobs, sizeLimit: !parsed.has("--no-size-limit"))
    } catch {
      printError("artwork process: \(error.detail)")
      return 1
    }
    let directory = outDirectory.hasSuffix("/") ? String(outDirectory.dropLast()) : outDirectory
    return await runBatch("process", settings, skipping: skipped) {
      (input) throws(ArtworkError) in
      try await render(input, options: options, loader: loader, into: directory)
    } emit: { result in
      writer.write(result.line)
    }
  }

  /// One input rendered and stored: the service's answer members, with the file's path as
  /// `image_url` and as `path`.
  private static func render(
    _ input: BatchInput, options: ArtworkOptions, loader: SourceLoader, into directory: String
  ) async throws(ArtworkError) -> [(String, JSONValue)] {
    let source = try await loader.load(input)
    let created = try await loader.processor.render(
      source.bytes, declaredType: source.declaredType, options: options)
    let path = "\(directory)/\(created.key.fileName)"
    let bytes = created.bytes
    try await loader.io.run { () throws(ArtworkError) in
      // Content-addressed: a file already there holds these very bytes.
      if !FileManager.default.fileExists(atPath: path) {
        try LocalFile.writeAtomically(path, bytes)
      }
    }
    let answer = ArtworkApp.artworkJSON(
      ArtworkAnswer(created, shape: options.shape), location: path, sourceURL: source.url)
    guard case .object(let members) = answer else { return [("path", .string(path))] }
    return members + [("path", .string(path))]
  }
}
