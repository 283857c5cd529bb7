/// Why a `LoopbackHTTPClient` operation failed.
public enum LoopbackHTTPError: Error, Equatable {
  case connectFailed(errno: Int32)
  case timedOut
  case connectionClosed
  case malformedResponse(String)
  case truncatedBody(expected: Int, received: Int)
}
