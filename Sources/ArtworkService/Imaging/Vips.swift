import CVips
import Synchronization

/// Process-wide libvips set-up, and the capture of libvips' per-thread error buffer.
enum Vips {
  private static let initialized = Mutex(false)

  /// Starts libvips once per process; later calls do nothing (tests call it freely).
  /// Call it from `main` before any other thread exists.
  ///
  /// - Loaders marked untrusted (ImageMagick, PDF, SVG, ...) are blocked: even though `sniff`
  ///   admits only six formats, a decoder that is never reachable cannot be attacked.
  /// - The operation cache is off: every request decodes different bytes, and the cache would
  ///   only hold memory (and file handles) across requests.
  /// - One worker thread per image: the service parallelises across requests instead.
  /// - Warnings are dropped (a truncated PNG warns once per missing row); failures still arrive
  ///   through the error buffer, in `ArtworkError.internalDetail`.
  static func initialize() {
    initialized.withLock { done in
      guard !done else { return }
      if artwork_vips_init("artwork") != 0 {
        // NOTE: without libvips nothing can be processed; failing loudly at start-up is right.
        fatalError("libvips failed to start: \(takeError())")
      }
      vips_block_untrusted_set(1)
      vips_cache_set_max(0)
      vips_cache_set_max_mem(0)
      vips_cache_set_max_files(0)
      vips_concurrency_set(1)
      artwork_vips_silence_warnings()
      done = true
    }
  }

  /// Empties the calling thread's libvips error buffer and returns what it held, for
  /// `ArtworkError.internalDetail`. libvips keeps this buffer per thread, which is why all the
  /// work for one image happens on one thread.
  static func takeError() -> String {
    let message = String(cString: vips_error_buffer())
    vips_error_clear()
    let lines = message.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy(\.isWhitespace) }
    return lines.isEmpty ? "no libvips message" : lines.joined(separator: "; ")
  }

  /// An `ArtworkError` carrying the libvips message of the failed call.
  static func failure(_ kind: ArtworkError.Kind, _ detail: String, call: String) -> ArtworkError {
    ArtworkError(kind, detail, internalDetail: "\(call): \(takeError())")
  }
}
