import ArtworkCore
import ArtworkService
import Foundation
import JSON

/// `artwork process [options] INPUT...`: every input through the service's checks and pipeline
/// in this process, stored content-addressed in `--out`, one JSON line each.
enum ProcessCommand: BatchCommand {
  static let name = "process"
  static let synopsis =
    "process INPUT... --out DIR [--shape S] [--size N] [--crop C] [--jobs N] [--jsonl FILE] [--resume]"
  static let summary = """
    Run the service's checks and pipeline on files, directories
    and URLs; store into DIR; one JSON line per input
    """
  static let valued = BatchSettings.valued.union([
    "--shape", "--size", "--crop", "--out", "--jsonl",
  ])
  static let flags: Set<String> = ["--resume", "--no-size-limit"]
  static let help = """
    artwork process [options] INPUT... --out DIR

    Runs every INPUT through the same checks, limits and pipeline as POST /v1/artwork, in this
    one process on one pool of workers, and stores each result in DIR (made if missing) as
    {sha256}.{jpg|png}, the name the service stores it under.

    INPUT is a file; a directory (walked recursively for files ending in .jpg .jpeg .png .webp
    .gif .heic .heif .avif, in any case; files named on the command line are always taken); an
    http(s) URL, fetched under the service's address policy and limits (ARTWORK_PRIVATE_SOURCES,
    ARTWORK_CA_FILE, ARTWORK_FETCH_TIMEOUT); or - for inputs one per line on standard input.

    Writes one JSON line per input, in completion order:
      {"input": ..., "ok": true, ...the service's answer, with image_url and path the stored file}
      {"input": ..., "ok": false, "problem": {"type", "title", "status", "detail"}}
    The problem is the one the service would answer (413 over the size limit, 415 not an
    accepted format, 422 undecodable...). A one-line summary goes to standard error.

      --shape S         square (default), poster (2:3) or circle
      --size N          output width in pixels, 64 to 1200 (default 400)
      --crop C          attention (default) or centre
      --out DIR         where the results are stored (required)
      --from FILE       more inputs, one per line
      --jobs N          images at once (default: the number of cores)
      --jsonl FILE      write the JSON lines to FILE instead of standard output (a link, a
                        device or a pipe is written through, never replaced)
      --resume          skip inputs that already have an "ok": true line in the --jsonl FILE,
                        and append to it
      --progress WHEN   auto (default: when standard error is a terminal), always or never:
                        done/total, failures, images per second and time left, redrawn in place
                        on a terminal, else a plain line a second
      --no-size-limit   accept sources over ARTWORK_MAX_SOURCE_BYTES (default 2000000); the
                        pixel limit (ARTWORK_MAX_PIXELS, default 40000000) still applies

    Ctrl-C (SIGINT) or SIGTERM stops taking new inputs and lets the running ones finish; every
    line written is whole, and a later run with --resume continues. A second Ctrl-C exits at
    once.

    Exit status: 0 every input succeeded, 1 any failed, 2 usage error, 130 interrupted.

    """

  static func run(_ parsed: ParsedArguments, environment: [String: String])
    async throws(UsageError) -> Int32
  {
    guard let outDirectory = parsed["--out"] else {
      throw UsageError(name, "--out DIR is required")
    }
    var fields: [String: String] = [:]
    for field in ["shape", "size", "crop"] { fields[field] = parsed["--\(field)"] }
    let options: ArtworkOptions
    do {
      options = try ArtworkOptions(fields: fields)
    } catch {
      throw UsageError(name, error.detail)
    }
    let jsonl = parsed["--jsonl"]
    let resume = parsed.has("--resume")
    if resume && jsonl == nil { throw UsageError(name, "--resume needs --jsonl FILE") }
    if resume && jsonl == "-" {
      throw UsageError(name, "--resume needs a --jsonl FILE to read back, not standard output")
    }
    let settings = try BatchSettings(parsed, command: name)
    let config = try sourceConfig(environment: environment)

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
      loader = try self.loader(
        config, jobs: settings.jobs, sizeLimit: !parsed.has("--no-size-limit"))
    } catch {
      Console.printError("artwork process: \(error.detail)")
      return 1
    }
    let directory = outDirectory.hasSuffix("/") ? String(outDirectory.dropLast()) : outDirectory
    return await runBatch(settings, skipping: skipped) {
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
    let answer = AnswerJSON.artwork(
      ArtworkAnswer(created), location: path, sourceURL: source.url)
    guard case .object(let members) = answer else { return [("path", .string(path))] }
    return members + [("path", .string(path))]
  }
}
