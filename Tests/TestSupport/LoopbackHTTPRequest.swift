import Synchronization

/// A request for `LoopbackHTTPClient`.
public struct LoopbackHTTPRequest: Sendable {
  /// A request body.
  public enum Body: Sendable {
    /// No body and no framing header.
    case none
    /// A body in memory (sent in 64 KiB pieces).
    case bytes([UInt8])
    /// Produced piece by piece until nil; without a length (or with `chunked`) it is sent with
    /// chunked transfer coding.
    case generator(length: Int?, next: @Sendable () -> [UInt8]?)

    /// `count` copies of `byte`, generated in 64 KiB pieces (never held whole in memory).
    public static func repeating(_ byte: UInt8, count: Int, declareLength: Bool = true) -> Body {
      let remaining = Mutex(count)
      let piece = [UInt8](repeating: byte, count: 64 * 1024)
      return .generator(length: declareLength ? count : nil) {
        remaining.withLock { remaining in
          guard remaining > 0 else { return nil }
          let size = min(remaining, piece.count)
          remaining -= size
          return size == piece.count ? piece : Array(piece[..<size])
        }
      }
    }
  }

  /// The method token, e.g. `GET`.
  public var method: String
  /// The request-target, e.g. `/v1/images/x?y=1`, sent as is.
  public var target: String
  /// Header fields in order; `Host`, `Content-Length` and `Transfer-Encoding` are added.
  public var headers: [(String, String)]
  public var body: Body
  /// Send the body with chunked transfer coding.
  public var chunked: Bool

  /// A request value.
  public init(
    _ method: String, _ target: String, headers: [(String, String)] = [], body: Body = .none,
    chunked: Bool = false
  ) {
    self.method = method
    self.target = target
    self.headers = headers
    self.body = body
    self.chunked = chunked
  }
}
