import Foundation

/// `ARTWORK_API_TOKENS_FILE`: one `name:token` a line; blank lines and lines starting with `#`
/// are skipped, and spaces around a line are trimmed. Read at start-up (a problem is a
/// configuration error) and again on SIGHUP (a problem keeps the tokens read before).
enum APITokenFile {
  /// The tokens of the file at `path`, or every problem found (each naming its line, never a
  /// token).
  static func read(_ path: String) -> Result<[APIToken], Problems> {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      return .failure(Problems(["cannot read \(path) as UTF-8 text"]))
    }
    return parse(text)
  }

  /// The tokens of a file's `text`, or every problem found.
  static func parse(_ text: String) -> Result<[APIToken], Problems> {
    var tokens: [APIToken] = []
    var problems: [String] = []
    // NOTE: "\r\n" is one Character in Swift: split on every newline, not on "\n".
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    for (index, raw) in lines.enumerated() {
      let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty || line.hasPrefix("#") { continue }
      switch APIToken.parse(line, fallbackName: nil) {
      case .success(let token): tokens.append(token)
      case .failure(let problem): problems.append("line \(index + 1): \(problem.text)")
      }
    }
    problems += APIToken.conflicts(tokens)
    return problems.isEmpty ? .success(tokens) : .failure(Problems(problems))
  }

  /// Every problem of one file, each a phrase.
  struct Problems: Error, Equatable {
    let list: [String]
    init(_ list: [String]) { self.list = list }
  }
}
