import CurlClient
import Synchronization
import WorkerHost

/// Process-wide initialisation of the C libraries, done once before any server thread runs.
///
/// libvips is not among them: the service's process (and the command line's) decodes nothing,
/// its worker processes do, and each starts libvips itself (`WorkerMain`). Left uninitialised
/// here, libvips loads none of its modules (ImageMagick, poppler, OpenSlide...) into the
/// service's memory.
public enum Runtime {
  private static let done = Mutex(false)

  /// Initialises libcurl, and makes freed request bodies reusable by the next ones
  /// (`ProcessMemory`; `HeapKeeper` gives the free heap back). Idempotent.
  public static func initialize() {
    done.withLock { done in
      guard !done else { return }
      Curl.globalInit()
      ProcessMemory.reuseFreedHeap()
      done = true
    }
  }
}
