import HTTP
import JSON

/// JSON answers of the API.
enum JSONResponse {
  /// A JSON response with `status`, optional extra headers, and no caching by intermediaries.
  static func make(_ status: Int, _ value: JSONValue, headers extra: [(String, String)] = [])
    -> HTTPResponse
  {
    make(status, text: value.bytes, headers: extra)
  }

  /// The same, for JSON text made elsewhere (a document edited in place).
  static func make(_ status: Int, text: [UInt8], headers extra: [(String, String)] = [])
    -> HTTPResponse
  {
    var headers = HTTPHeaders()
    headers.set("Content-Type", "application/json")
    headers.set("Cache-Control", "no-store")
    for (name, value) in extra { headers.set(name, value) }
    return HTTPResponse(status: status, headers: headers, body: .bytes(text))
  }
}
