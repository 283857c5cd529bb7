import ArtworkCore
internal import CCurl
import Glibc

/// One libcurl easy handle: typed options, `perform`, info getters, and Swift closures for the
/// header, body, progress and open-socket callbacks. The one Swift wrapper of libcurl:
/// the source fetcher and the S3 storage backend both build on it.
///
/// Not thread-safe (neither is a curl easy handle): use it on one thread at a time, typically one
/// pool thread for one transfer. `Curl.globalInit()` must have run.
///
/// NOTE: the callbacks reach this object through curl's `void *` slots as an *unretained*
/// `Unmanaged` reference. That is sound because this object owns the handle: curl calls them only
/// inside `perform()` (while `self` is alive by construction), and `deinit` cleans the handle up
/// before anything else goes.
public final class CurlEasy {
  /// Internal, not private: `CurlEasy+S3.swift` sets the options it adds. Never leaves the module.
  let handle: UnsafeMutableRawPointer
  private let errorBuffer: UnsafeMutablePointer<CChar>
  /// curl keeps pointers to slists (headers, resolve entries) without copying them.
  private var lists: [UInt32: UnsafeMutablePointer<curl_slist>] = [:]
  /// curl keeps the CURLU it is given; this keeps it alive.
  private var url: CurlURL?

  /// Called with each header line as received (including the status line and the final empty
  /// line, without CR LF). Return false to abort the transfer.
  public var onHeaderLine: ((String) -> Bool)?
  /// Called with each chunk of the response body. Return false to abort the transfer.
  public var onBody: (([UInt8]) -> Bool)?
  /// Called before each socket curl would open, with the address it is about to dial. Return
  /// false to refuse: no socket is created and curl tries the next address or fails with
  /// "couldn't connect". Without it every address is dialled.
  public var onOpenSocket: ((CurlEndpoint) -> Bool)?
  /// Called often during the transfer; return false to abort it (cancellation).
  public var onProgress: (() -> Bool)?

  /// A fresh handle with the settings every use in this service wants: no signals (threads),
  /// no proxies from the environment, no progress meter, and an error buffer for messages.
  public init() {
    guard let handle = curl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
    self.handle = handle
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    _ = artwork_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
    let me = Unmanaged.passUnretained(self).toOpaque()
    _ = artwork_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, me)
    _ = artwork_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, me)
    _ = artwork_curl_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, me)
    _ = artwork_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, me)
    _ = artwork_curl_setopt_data_function(handle, CURLOPT_WRITEFUNCTION, curlEasyWrite)
    _ = artwork_curl_setopt_data_function(handle, CURLOPT_HEADERFUNCTION, curlEasyHeader)
    _ = artwork_curl_setopt_opensocket_function(handle, curlEasyOpenSocket)
    _ = artwork_curl_setopt_xferinfo_function(handle, curlEasyProgress)
    set(.noSignal, true)
    set(.proxy, "")
    set(.noProxy, "*")
    _ = artwork_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
  }

  deinit {
    curl_easy_cleanup(handle)
    for list in lists.values { curl_slist_free_all(list) }
    errorBuffer.deallocate()
  }

  // MARK: Options

  /// Sets a boolean option (C long 0/1). Options are fixed at construction of this wrapper's
  /// vocabulary, so a failure here is a programming error (or a libcurl built without the feature).
  public func set(_ option: CurlOption<Bool>, _ value: Bool) {
    check(artwork_curl_setopt_long(handle, option.option, value ? 1 : 0), option.rawValue)
  }

  /// Sets an integer option.
  public func set(_ option: CurlOption<Int>, _ value: Int) {
    check(artwork_curl_setopt_long(handle, option.option, value), option.rawValue)
  }

  /// Sets a string option; curl copies the string.
  public func set(_ option: CurlOption<String>, _ value: String) {
    check(artwork_curl_setopt_string(handle, option.option, value), option.rawValue)
  }

  /// Sets a list option (a curl_slist this object owns until it is replaced or the handle goes).
  public func set(_ option: CurlOption<[String]>, _ value: [String]) {
    var list: UnsafeMutablePointer<curl_slist>?
    for item in value {
      guard let longer = curl_slist_append(list, item) else { fatalError("curl_slist_append") }
      list = longer
    }
    check(artwork_curl_setopt_pointer(handle, option.option, list), option.rawValue)
    if let old = lists[option.rawValue] { curl_slist_free_all(old) }
    lists[option.rawValue] = list
  }

  /// Sets a blob option; curl copies the bytes.
  public func set(_ option: CurlOption<[UInt8]>, _ value: [UInt8]) {
    let code = value.withUnsafeBytes {
      artwork_curl_setopt_blob(handle, option.option, $0.baseAddress, $0.count)
    }
    check(code, option.rawValue)
  }

  /// The URL to fetch, as parsed by curl's parser (kept alive by this object).
  public func set(url: CurlURL) {
    self.url = url
    url.withHandle {
      check(artwork_curl_setopt_pointer(handle, CURLOPT_CURLU, UnsafeMutableRawPointer($0)), 0)
    }
  }

  private func check(_ code: CURLcode, _ option: UInt32) {
    precondition(code == CURLE_OK, "curl_easy_setopt(\(option)) failed: \(code.rawValue)")
  }

  // MARK: Transfer

  /// Runs the transfer to completion on the calling thread (blocking; callbacks run here too).
  public func perform() -> CurlStatus {
    errorBuffer[0] = 0
    let code = curl_easy_perform(handle)
    var detail = String(cString: errorBuffer)
    if detail.isEmpty { detail = String(cString: curl_easy_strerror(code)) }
    // curl 7.88 leaves the system's reason out of a failed connect ("Couldn't connect to
    // server"); the errno says whether it was refused, unreachable or reset.
    var osError = 0
    if code != CURLE_OK, artwork_curl_getinfo_long(handle, CURLINFO_OS_ERRNO, &osError) == CURLE_OK,
      osError != 0, let text = strerror(Int32(osError))
    {
      let reason = String(cString: text)
      if !detail.contains(reason) { detail += " (\(reason))" }
    }
    return CurlStatus(code, message: detail)
  }

  // MARK: Info

  /// An integer fact about the last transfer; nil when curl has none.
  public func info(_ item: CurlInfo<Int>) -> Int? {
    var value = 0
    guard artwork_curl_getinfo_long(handle, item.info, &value) == CURLE_OK else { return nil }
    return value
  }

  /// nil when curl has no value (e.g. no Content-Type, not a redirect).
  public func info(_ item: CurlInfo<String>) -> String? {
    var value: UnsafePointer<CChar>?
    guard artwork_curl_getinfo_string(handle, item.info, &value) == CURLE_OK, let value else {
      return nil
    }
    return String(cString: value)
  }

  // MARK: Callback entry points (called by the C trampolines)

  fileprivate func receivedHeader(_ line: String) -> Bool { onHeaderLine?(line) ?? true }
  fileprivate func receivedBody(_ chunk: [UInt8]) -> Bool { onBody?(chunk) ?? true }
  fileprivate func mayOpen(_ endpoint: CurlEndpoint) -> Bool { onOpenSocket?(endpoint) ?? true }
  fileprivate func mayContinue() -> Bool { onProgress?() ?? true }
}

/// Where curl is about to connect: the address as raw bytes turned into an `IPAddress`.
public struct CurlEndpoint: Sendable, Equatable {
  /// The address curl is about to dial.
  public let address: IPAddress
  /// The port curl is about to dial.
  public let port: Int
}

// MARK: - C trampolines: free functions, never actor-isolated (they run on curl's thread).

private func easy(_ pointer: UnsafeMutableRawPointer?) -> CurlEasy {
  Unmanaged<CurlEasy>.fromOpaque(pointer!).takeUnretainedValue()
}

private func curlEasyWrite(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
  _ context: UnsafeMutableRawPointer?
) -> Int {
  let length = size * count
  let chunk = data.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
  return easy(context).receivedBody(chunk) ? length : 0
}

private func curlEasyHeader(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
  _ context: UnsafeMutableRawPointer?
) -> Int {
  let length = size * count
  var bytes = data.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
  while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
  return easy(context).receivedHeader(String(decoding: bytes, as: UTF8.self)) ? length : 0
}

private func curlEasyOpenSocket(
  _ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype,
  _ address: UnsafeMutablePointer<curl_sockaddr>?
) -> curl_socket_t {
  guard let address else { return artwork_curl_socket_bad }
  var bytes = [UInt8](repeating: 0, count: 16)
  var port: UInt16 = 0
  let length = artwork_curl_sockaddr_copy(address, &bytes, &port)
  // An address family the policy cannot judge (e.g. a Unix socket) is never opened.
  guard length > 0, let ip = IPAddress(bytes: bytes[0..<Int(length)]) else {
    return artwork_curl_socket_bad
  }
  guard easy(context).mayOpen(CurlEndpoint(address: ip, port: Int(port))) else {
    return artwork_curl_socket_bad
  }
  return artwork_curl_sockaddr_open(address)
}

private func curlEasyProgress(
  _ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
  _ uploadTotal: curl_off_t, _ uploaded: curl_off_t
) -> Int32 {
  easy(context).mayContinue() ? 0 : 1
}
