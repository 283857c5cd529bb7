/// What the store answered: status, the response headers (names lowercase) and the body.
struct S3Response: Sendable {
  var status: Int
  var headers: [String: String]
  var body: [UInt8]

  var isSuccess: Bool { (200...299).contains(status) }

  /// The S3 error code from an XML error body (`NoSuchKey`, `SignatureDoesNotMatch`...), if any.
  var errorCode: String? { S3XML.firstValue(of: "Code", in: body) }
  /// The S3 error message from an XML error body, if any.
  var errorMessage: String? { S3XML.firstValue(of: "Message", in: body) }

  /// The `Content-Length` header as a number.
  var contentLength: Int? { headers["content-length"].flatMap { Int($0) } }

  /// The `Last-Modified` header as seconds since 1970, if present and well-formed.
  var lastModified: Int64? { headers["last-modified"].flatMap(S3Date.parseHTTPDate) }

  /// The total size from `Content-Range: bytes a-b/total` (206 answers).
  var contentRangeTotal: Int? {
    guard let range = headers["content-range"], let slash = range.lastIndex(of: "/") else {
      return nil
    }
    return Int(range[range.index(after: slash)...])
  }

  /// A one-line summary for logs: status, code and message. Never includes credentials.
  var summary: String {
    var text = "HTTP \(status)"
    if let errorCode { text += " \(errorCode)" }
    if let errorMessage { text += ": \(errorMessage)" }
    return text
  }
}
