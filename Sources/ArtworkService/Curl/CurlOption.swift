import CCurl

/// A `curl_easy_setopt` option whose argument is a `Value`: `Bool`/`Int` (C long), `Int64`
/// (curl_off_t), `String`, `[String]` (a curl_slist) or `[UInt8]` (a blob curl copies).
/// The set is what this service needs; add options here, next to their C names.
public struct CurlOption<Value>: Sendable {
  /// The `CURLoption` value, kept as its integer so no C type leaves the wrapper.
  let rawValue: UInt32

  private init(_ option: CURLoption) { rawValue = option.rawValue }

  var option: CURLoption { CURLoption(rawValue: rawValue) }
}

extension CurlOption where Value == Bool {
  public static var noSignal: Self { .init(CURLOPT_NOSIGNAL) }
  public static var verbose: Self { .init(CURLOPT_VERBOSE) }
  public static var followLocation: Self { .init(CURLOPT_FOLLOWLOCATION) }
  public static var sslVerifyPeer: Self { .init(CURLOPT_SSL_VERIFYPEER) }
  public static var httpContentDecoding: Self { .init(CURLOPT_HTTP_CONTENT_DECODING) }
  public static var forbidReuse: Self { .init(CURLOPT_FORBID_REUSE) }
  public static var freshConnect: Self { .init(CURLOPT_FRESH_CONNECT) }
  /// HEAD: no body.
  public static var noBody: Self { .init(CURLOPT_NOBODY) }
  /// PUT-style upload of the request body (see `CurlEasy.setRequestBody`).
  public static var upload: Self { .init(CURLOPT_UPLOAD) }
  public static var tcpNoDelay: Self { .init(CURLOPT_TCP_NODELAY) }
}

extension CurlOption where Value == Int {
  /// 2 to check the certificate names the host (the only value that checks).
  public static var sslVerifyHost: Self { .init(CURLOPT_SSL_VERIFYHOST) }
  public static var connectTimeoutMS: Self { .init(CURLOPT_CONNECTTIMEOUT_MS) }
  public static var timeoutMS: Self { .init(CURLOPT_TIMEOUT_MS) }
  public static var maxRedirects: Self { .init(CURLOPT_MAXREDIRS) }
  public static var lowSpeedLimit: Self { .init(CURLOPT_LOW_SPEED_LIMIT) }
  public static var lowSpeedTime: Self { .init(CURLOPT_LOW_SPEED_TIME) }
  public static var bufferSize: Self { .init(CURLOPT_BUFFERSIZE) }
}

extension CurlOption where Value == Int64 {
  public static var maxFileSize: Self { .init(CURLOPT_MAXFILESIZE_LARGE) }
  public static var inFileSize: Self { .init(CURLOPT_INFILESIZE_LARGE) }
}

extension CurlOption where Value == String {
  public static var url: Self { .init(CURLOPT_URL) }
  /// Comma-separated schemes allowed for the first request, e.g. "http,https".
  public static var protocols: Self { .init(CURLOPT_PROTOCOLS_STR) }
  /// Comma-separated schemes allowed on redirects curl follows.
  public static var redirectProtocols: Self { .init(CURLOPT_REDIR_PROTOCOLS_STR) }
  /// "" disables every proxy, including those named by the environment.
  public static var proxy: Self { .init(CURLOPT_PROXY) }
  /// "*" bypasses proxies for every host.
  public static var noProxy: Self { .init(CURLOPT_NOPROXY) }
  public static var userAgent: Self { .init(CURLOPT_USERAGENT) }
  public static var customRequest: Self { .init(CURLOPT_CUSTOMREQUEST) }
  public static var caInfo: Self { .init(CURLOPT_CAINFO) }
  public static var caPath: Self { .init(CURLOPT_CAPATH) }
  /// `user:password` (with `awsSigV4`, the access key and secret).
  public static var userPassword: Self { .init(CURLOPT_USERPWD) }
  /// "aws:amz:region:s3": sign the request with AWS Signature Version 4.
  public static var awsSigV4: Self { .init(CURLOPT_AWS_SIGV4) }
  /// Empty: send no Accept-Encoding. Left unset, curl sends none either.
  public static var acceptEncoding: Self { .init(CURLOPT_ACCEPT_ENCODING) }
}

extension CurlOption where Value == [String] {
  /// Request header lines ("Name: value"); "Name:" removes a header curl would add.
  public static var httpHeader: Self { .init(CURLOPT_HTTPHEADER) }
  /// "host:port:address[,address]" entries pinning name resolution.
  public static var resolve: Self { .init(CURLOPT_RESOLVE) }
}

extension CurlOption where Value == [UInt8] {
  /// PEM certificates trusted instead of the CURLOPT_CAINFO file (CURLOPT_CAPATH still applies).
  public static var caInfoBlob: Self { .init(CURLOPT_CAINFO_BLOB) }
}

/// A `curl_easy_getinfo` item whose answer is a `Value`: `Int` (long), `Int64` (curl_off_t) or
/// `String`.
public struct CurlInfo<Value>: Sendable {
  let rawValue: UInt32

  private init(_ info: CURLINFO) { rawValue = info.rawValue }

  var info: CURLINFO { CURLINFO(rawValue: rawValue) }
}

extension CurlInfo where Value == Int {
  /// The last response's status code (0 when none arrived).
  public static var responseCode: Self { .init(CURLINFO_RESPONSE_CODE) }
  /// The certificate verification result (0 is X509_V_OK).
  public static var sslVerifyResult: Self { .init(CURLINFO_SSL_VERIFYRESULT) }
  public static var primaryPort: Self { .init(CURLINFO_PRIMARY_PORT) }
  public static var numConnects: Self { .init(CURLINFO_NUM_CONNECTS) }
  /// The OS error of the last failed connect (errno).
  public static var osErrno: Self { .init(CURLINFO_OS_ERRNO) }
}

extension CurlInfo where Value == Int64 {
  /// Content-Length of the download, -1 when the response did not say.
  public static var contentLengthDownload: Self { .init(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T) }
  public static var sizeDownload: Self { .init(CURLINFO_SIZE_DOWNLOAD_T) }
  public static var totalTimeMicroseconds: Self { .init(CURLINFO_TOTAL_TIME_T) }
}

extension CurlInfo where Value == String {
  public static var contentType: Self { .init(CURLINFO_CONTENT_TYPE) }
  /// The absolute URL a redirect response points to (Location resolved against the request).
  public static var redirectURL: Self { .init(CURLINFO_REDIRECT_URL) }
  public static var effectiveURL: Self { .init(CURLINFO_EFFECTIVE_URL) }
  /// The IP address of the most recent connection.
  public static var primaryIP: Self { .init(CURLINFO_PRIMARY_IP) }
  /// The default CA bundle path libcurl was built with.
  public static var caInfo: Self { .init(CURLINFO_CAINFO) }
}
