internal import CCurl

/// A `curl_easy_setopt` option whose argument is a `Value`: `Bool`/`Int` (C long), `String`,
/// `[String]` (a curl_slist) or `[UInt8]` (a blob curl copies).
/// The set is what this service needs; add options here, next to their C names.
public struct CurlOption<Value>: Sendable {
  /// The `CURLoption` value, kept as its integer so no C type leaves the wrapper.
  let rawValue: UInt32

  private init(_ option: CURLoption) { rawValue = option.rawValue }

  var option: CURLoption { CURLoption(rawValue: rawValue) }
}

extension CurlOption where Value == Bool {
  static var noSignal: Self { .init(CURLOPT_NOSIGNAL) }
  /// Whether curl follows redirects itself (set false: the caller judges every hop).
  public static var followLocation: Self { .init(CURLOPT_FOLLOWLOCATION) }
  /// Whether the peer certificate is verified (always true).
  public static var sslVerifyPeer: Self { .init(CURLOPT_SSL_VERIFYPEER) }
  /// Whether curl decodes content codings (set false: bodies are taken as sent).
  public static var httpContentDecoding: Self { .init(CURLOPT_HTTP_CONTENT_DECODING) }
  /// HEAD: no body.
  static var noBody: Self { .init(CURLOPT_NOBODY) }
}

extension CurlOption where Value == Int {
  /// 2 to check the certificate names the host (the only value that checks).
  public static var sslVerifyHost: Self { .init(CURLOPT_SSL_VERIFYHOST) }
  /// Deadline for connecting, in milliseconds.
  public static var connectTimeoutMS: Self { .init(CURLOPT_CONNECTTIMEOUT_MS) }
  /// Deadline for the whole transfer, in milliseconds.
  public static var timeoutMS: Self { .init(CURLOPT_TIMEOUT_MS) }
}

extension CurlOption where Value == String {
  /// The URL to transfer.
  public static var url: Self { .init(CURLOPT_URL) }
  /// Comma-separated schemes allowed for the first request, e.g. "http,https".
  public static var protocols: Self { .init(CURLOPT_PROTOCOLS_STR) }
  /// Comma-separated schemes allowed on redirects curl follows.
  public static var redirectProtocols: Self { .init(CURLOPT_REDIR_PROTOCOLS_STR) }
  /// "" disables every proxy, including those named by the environment.
  public static var proxy: Self { .init(CURLOPT_PROXY) }
  /// "*" bypasses proxies for every host.
  static var noProxy: Self { .init(CURLOPT_NOPROXY) }
  /// The `User-Agent` header.
  public static var userAgent: Self { .init(CURLOPT_USERAGENT) }
  static var customRequest: Self { .init(CURLOPT_CUSTOMREQUEST) }
  /// `user:password` (with `awsSigV4`, the access key and secret).
  public static var userPassword: Self { .init(CURLOPT_USERPWD) }
  /// "aws:amz:region:s3": sign the request with AWS Signature Version 4.
  public static var awsSigV4: Self { .init(CURLOPT_AWS_SIGV4) }
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

/// A `curl_easy_getinfo` item whose answer is a `Value`: `Int` (long) or `String`.
public struct CurlInfo<Value>: Sendable {
  let rawValue: UInt32

  private init(_ info: CURLINFO) { rawValue = info.rawValue }

  var info: CURLINFO { CURLINFO(rawValue: rawValue) }
}

extension CurlInfo where Value == Int {
  /// The last response's status code (0 when none arrived).
  public static var responseCode: Self { .init(CURLINFO_RESPONSE_CODE) }
}

extension CurlInfo where Value == String {
  /// The IP address of the most recent connection.
  public static var primaryIP: Self { .init(CURLINFO_PRIMARY_IP) }
  /// The default CA bundle path libcurl was built with.
  static var caInfo: Self { .init(CURLINFO_CAINFO) }
}
