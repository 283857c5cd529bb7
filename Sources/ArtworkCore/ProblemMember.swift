/// One extension member of a problem document: a name from the documented set and a string or
/// integer value (`"reason": "dns"`, `"origin_status": 404`).
public struct ProblemMember: Sendable, Equatable, Codable {
  /// A member's value: the two JSON types problem extensions use here.
  public enum Value: Sendable, Equatable, Codable {
    case string(String)
    case int(Int)
  }

  /// The member's name, in snake case like the rest of the service's JSON.
  public var name: String
  /// The member's value.
  public var value: Value

  /// A string member.
  public static func string(_ name: String, _ value: String) -> ProblemMember {
    ProblemMember(name: name, value: .string(value))
  }

  /// An integer member.
  public static func int(_ name: String, _ value: Int) -> ProblemMember {
    ProblemMember(name: name, value: .int(value))
  }
}
