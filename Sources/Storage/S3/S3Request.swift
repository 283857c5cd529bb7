/// One S3 request, fully built and ready to be signed by libcurl: the URL's path and query are
/// already canonical and every header to sign is here. A value, so request construction is
/// tested without a server (SeaweedFS is more lenient than AWS about payload hashes and regions).
struct S3Request: Sendable, Equatable {
  enum Method: String, Sendable {
    case get = "GET"
    case head = "HEAD"
    case put = "PUT"
    case delete = "DELETE"
  }

  var method: Method
  /// Absolute URL with an encoded path and a canonical query.
  var url: String
  /// Headers in send order, names lowercase. Always includes `x-amz-content-sha256`.
  var headers: [(name: String, value: String)]
  /// The body of a PUT; empty otherwise.
  var body: [UInt8]

  /// The value of header `name` (lowercase), if present.
  func header(_ name: String) -> String? {
    headers.first(where: { $0.name == name })?.value
  }

  static func == (lhs: S3Request, rhs: S3Request) -> Bool {
    lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body
      && lhs.headers.map(\.name) == rhs.headers.map(\.name)
      && lhs.headers.map(\.value) == rhs.headers.map(\.value)
  }
}
