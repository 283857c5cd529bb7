/// Why a `LoopbackHTTPClient` operation failed.
public enum LoopbackHTTPError: Error, Equatable {
  /// `connect` failed (e.g. `ECONNREFUSED` once a server stopped listening).
  case connectFailed(errno: Int32)
  /// Nothing happened within the client's timeout.
  case timedOut
  /// The server closed (or reset) the connection before a complete response.
  case connectionClosed
  /// The bytes read are not an HTTP/1.1 response.
  case malformedResponse(String)
  /// The connection ended before `Content-Length` bytes of body arrived.
  case truncatedBody(expected: Int, received: Int)
}
