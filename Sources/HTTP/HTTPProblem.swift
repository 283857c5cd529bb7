/// An error the server answers by itself (no route, a malformed request, a body over its limit,
/// a timeout, overload...), handed to `HTTPServerConfiguration.problemResponder` for rendering.
public struct HTTPProblem: Sendable, Equatable {
  /// The status to answer (400 or more).
  public var status: Int
  /// A sentence saying what is wrong and what to do; client values in it are cut short.
  public var detail: String
  /// The request id the answer and the access log carry.
  public var requestID: String

  /// A problem value.
  public init(status: Int, detail: String, requestID: String) {
    self.status = status
    self.detail = detail
    self.requestID = requestID
  }
}
