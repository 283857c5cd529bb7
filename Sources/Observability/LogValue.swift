/// One value of a structured log field. Literals convert implicitly:
/// `logger.info("stored", ["bytes": 1234, "key": "\(key)", "cached": true])`.
public enum LogValue: Sendable, Equatable {
  case string(String)
  case int(Int)
  case double(Double)
  case bool(Bool)
}

extension LogValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
  /// A string field from a literal.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension LogValue: ExpressibleByIntegerLiteral {
  /// An integer field from a literal.
  public init(integerLiteral value: Int) { self = .int(value) }
}

extension LogValue: ExpressibleByFloatLiteral {
  /// A number field from a literal.
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension LogValue: ExpressibleByBooleanLiteral {
  /// A boolean field from a literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}
