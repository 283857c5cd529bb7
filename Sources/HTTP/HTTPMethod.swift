/// An HTTP request method. The common methods have named constants; any other token is kept
/// as its raw string (methods are case-sensitive, RFC 9110 section 9.1).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The method token exactly as it appears on the request line.
  public let rawValue: String

  /// Wraps a method token.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// `GET`.
  public static let get = HTTPMethod(rawValue: "GET")
  /// `HEAD`.
  public static let head = HTTPMethod(rawValue: "HEAD")
  /// `POST`.
  public static let post = HTTPMethod(rawValue: "POST")
  /// `PUT`.
  public static let put = HTTPMethod(rawValue: "PUT")
  /// `DELETE`.
  public static let delete = HTTPMethod(rawValue: "DELETE")
  /// `OPTIONS`.
  public static let options = HTTPMethod(rawValue: "OPTIONS")

  public var description: String { rawValue }
}
