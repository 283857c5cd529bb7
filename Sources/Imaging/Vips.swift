import ArtworkCore
internal import CVips
import Synchronization

/// Process-wide libvips set-up, and the capture of libvips' (process-wide) error buffer.
public enum Vips {
  private static let initialized = Mutex(false)

  /// Starts libvips once per process; later calls do nothing (the pipeline's entry points call
  /// it, and tests freely). A worker calls it first thing, before any other thread exists.
  ///
  /// - Loaders marked untrusted (ImageMagick, PDF, SVG, ...) are blocked: even though `sniff`
  ///   admits only six formats, a decoder that is never reachable cannot be attacked.
  /// - The operation cache is off: every request decodes different bytes, and the cache would
  ///   only hold memory (and file handles) across requests.
  /// - One worker thread per image: the service parallelises across requests instead.
  /// - Warnings are dropped (a truncated PNG warns once per missing row); failures still arrive
  ///   through the error buffer, in `ArtworkError.internalDetail`. (libvips decodes no JPEG's
  ///   pixels: libjpeg's door does, and judges its warnings itself.)
  public static func initialize() {
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

  /// The libvips version this process runs with (`8.14.1`), for `artwork --version`.
  public static var version: String { String(cString: vips_version_string()) }

  /// Empties libvips' error buffer and returns what it held, for `ArtworkError.internalDetail`.
  ///
  /// NOTE: in libvips 8.14 the error buffer is global, shared by all threads (libvips' own
  /// documentation says so), not per thread. Whether a call failed is known from its return
  /// value, so outcomes and public details are always right; but when two images fail at the
  /// same moment, one may log the other's message. The read and the clear happen under one lock
  /// so that at least no message is torn or read twice.
  static func takeError() -> String {
    let message = errorLock.withLock { _ in
      let text = String(cString: vips_error_buffer())
      vips_error_clear()
      return text
    }
    let lines = message.split(whereSeparator: \.isNewline).filter {
      !$0.allSatisfy(\.isWhitespace)
    }
    return lines.isEmpty ? "no libvips message" : lines.joined(separator: "; ")
  }

  private static let errorLock = Mutex(())

  /// An `ArtworkError` carrying the libvips message of the failed call.
  static func failure(_ kind: ArtworkError.Kind, _ detail: String, call: String) -> ArtworkError {
    ArtworkError(kind, detail, internalDetail: "\(call): \(takeError())")
  }
}
