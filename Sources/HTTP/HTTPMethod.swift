/// An HTTP request method. The common methods have named constants; any other token is kept
/// as its raw string (methods are case-sensitive, RFC 9110 section 9.1).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The method token exactly as it appears on the request line.
  public let rawValue: String

  /// Wraps a method token.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  public static let get = HTTPMethod(rawValue: "GET")
  public static let head = HTTPMethod(rawValue: "HEAD")
  public static let post = HTTPMethod(rawValue: "POST")
  public static let put = HTTPMethod(rawValue: "PUT")
  public static let delete = HTTPMethod(rawValue: "DELETE")
  public static let options = HTTPMethod(rawValue: "OPTIONS")
  public static let patch = HTTPMethod(rawValue: "PATCH")

  public var description: String { rawValue }
}
