/// Why the configuration was refused: every bad variable at once, so that an operator fixes them
/// all in one go instead of one restart per typo.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
  /// One sentence per problem; each names the variable, the value it had (secrets are not shown)
  /// and what is accepted.
  public var problems: [String]

  /// An error listing every problem found.
  init(problems: [String]) {
    self.problems = problems
  }

  public var description: String {
    let noun = problems.count == 1 ? "problem" : "problems"
    return "invalid configuration (\(problems.count) \(noun)):\n"
      + problems.map { "  - \($0)" }.joined(separator: "\n")
  }
}
