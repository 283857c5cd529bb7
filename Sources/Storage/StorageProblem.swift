/// Why storage cannot be used, told twice: `summary` in words any client may read (no path,
/// endpoint or library text), `detail` with the specifics for the operator's log.
public struct StorageProblem: Error, Sendable, Equatable, CustomStringConvertible {
  /// The cause in words: "the storage filesystem is full".
  public var summary: String
  /// The summary, then what failed where: "...: open(/data/tmp/1-ab.tmp): No space left on device".
  public var detail: String

  public init(summary: String, detail: String) {
    self.summary = summary
    self.detail = detail
  }

  public var description: String { detail }
}
