internal import CCurl
import Synchronization

/// Process-wide libcurl state.
public enum Curl {
  private static let initialised = Mutex(false)

  /// Initialises libcurl (and OpenSSL under it) once for the process. Call it from `main` before
  /// any thread starts; later calls do nothing. `curl_global_init` is not thread-safe in 7.88, so
  /// the lock only guards against a second call, not against racing other libraries.
  public static func globalInit() {
    initialised.withLock { done in
      guard !done else { return }
      let code = curl_global_init(artwork_curl_global_default)
      precondition(code == CURLE_OK, "curl_global_init failed: \(code.rawValue)")
      done = true
    }
  }

  /// The CA bundle file libcurl was built to trust (`CURLINFO_CAINFO`), if any.
  public static var defaultCABundlePath: String? {
    CurlEasy().info(.caInfo)
  }
}
