internal import CCurl

/// What the S3 storage backend needs beyond the fetcher's options: choosing the request method
/// on a reused handle and sending a body from memory without `Expect: 100-continue`.
extension CurlEasy {
  /// Makes the next transfer a bodyless request with method `method` (GET, HEAD, DELETE),
  /// undoing whatever body or method the handle's previous transfer used.
  public func setBodylessRequest(method: String) {
    // Frees curl's copy of an earlier body; HTTPGET then resets the upload/post/nobody state
    // an earlier transfer on this handle left.
    check(artwork_curl_setopt_copy_body(handle, nil, 0))
    check(artwork_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
    set(.customRequest, method)
    set(.noBody, method == "HEAD")
  }

  /// Makes the next transfer a request with method `method` whose body is `bytes`, copied by
  /// curl and sent with a `Content-Length`.
  ///
  /// NOTE: this is curl's POSTFIELDS path with the method overridden, not CURLOPT_UPLOAD: curl
  /// 7.88 adds `Expect: 100-continue` to every upload, but to a POSTFIELDS body only above 1 MiB,
  /// and above that `Expect` waits no time (CURLOPT_EXPECT_100_TIMEOUT_MS 0), so no request
  /// stalls a round trip. curl adds `Expect` after signing, so it never breaks the signature.
  public func setBodyRequest(method: String, body bytes: [UInt8]) {
    check(artwork_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
    set(.noBody, false)
    let code = bytes.withUnsafeBytes {
      artwork_curl_setopt_copy_body(handle, $0.baseAddress, $0.count)
    }
    check(code)
    check(artwork_curl_setopt_long(handle, CURLOPT_EXPECT_100_TIMEOUT_MS, 0))
    set(.customRequest, method)
  }

  private func check(_ code: CURLcode) {
    precondition(code == CURLE_OK, "curl_easy_setopt failed: \(code.rawValue)")
  }
}
