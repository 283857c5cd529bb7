import HTTP

extension EmbeddedFile {
  /// 200 with the file (304 when the client holds its bytes already). The bytes change only
  /// with the binary, so a client revalidates each time (`no-cache`) and mostly gets a 304.
  func response(to request: HTTPRequest) -> HTTPResponse {
    var headers = HTTPHeaders()
    headers.set("Cache-Control", "no-cache")
    headers.set("ETag", etag)
    headers.set("X-Content-Type-Options", "nosniff")
    if EntityTag.isNotModified(request, etag: etag) {
      return HTTPResponse(status: 304, headers: headers, body: .empty)
    }
    headers.set("Content-Type", contentType)
    return HTTPResponse(status: 200, headers: headers, body: .bytes(bytes))
  }
}
