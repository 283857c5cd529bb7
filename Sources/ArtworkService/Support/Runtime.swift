import CurlClient
import Imaging
import Synchronization

/// Process-wide initialisation of the C libraries, done once before any server thread runs.
public enum Runtime {
  private static let done = Mutex(false)

  /// Initialises libvips (untrusted loaders blocked, cache off) and libcurl. Idempotent.
  public static func initialize() {
    done.withLock { done in
      guard !done else { return }
      Vips.initialize()
      Curl.globalInit()
      done = true
    }
  }
}
