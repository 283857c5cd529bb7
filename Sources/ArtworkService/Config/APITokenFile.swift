import Foundation

/// `ARTWORK_API_TOKENS_FILE`: one `name:token` a line; blank lines and lines starting with `#`
/// are skipped, and spaces around a line are trimmed. Read at start-up (a problem is a
/// configuration error) and again on SIGHUP (a problem keeps the tokens read before).
///
/// The file is read whole and checked whole before any of it takes effect, and a file that
/// looks half-written is a problem like a bad line: it must not be empty (a file that revokes
/// everyone says so in a comment line) and must end with a line break (so a cut in a token is
/// never taken for a token), and two reads in a row must find the same bytes (the second comes
/// at once, so a reload costs no wait; while reads differ, the file is being written, and it
/// is read again 25 ms apart, a few times). Writing the file elsewhere and renaming it into
/// place (`mv`, `install`) never trips these.
enum APITokenFile {
  /// How many times the file is read, at most, looking for two reads that agree.
  static let reads = 8
  /// The pause before a read again, once two reads differed, in seconds.
  static let pause = 0.025

  /// The tokens of the file at `path`, or every problem found (each naming its line, never a
  /// token).
  static func read(_ path: String) -> Result<[APIToken], Problems> {
    let bytes = settled(pause: pause) {
      FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
    switch bytes {
    case .unreadable: return .failure(Problems(["cannot read \(path)"]))
    case .changing:
      return .failure(
        Problems([
          "\(path) changed each time it was read (\(reads) reads): it is being "
            + "written; write it elsewhere and rename it into place"
        ]))
    case .read(let bytes): return parse(bytes)
    }
  }

  /// What reading the file found.
  enum Read: Equatable {
    case unreadable
    /// Two reads in a row never agreed.
    case changing
    case read([UInt8])
  }

  /// The bytes `read` answers twice in a row (at most `reads` reads; the second at once, each
  /// later one `pause` after the one before).
  static func settled(pause: Double, _ read: () -> [UInt8]?) -> Read {
    guard var last = read() else { return .unreadable }
    for attempt in 1..<reads {
      if attempt > 1, pause > 0 { Thread.sleep(forTimeInterval: pause) }
      guard let again = read() else { return .unreadable }
      if again == last { return .read(again) }
      last = again
    }
    return .changing
  }

  /// The tokens of a whole file's `bytes`, or every problem found.
  static func parse(_ bytes: [UInt8]) -> Result<[APIToken], Problems> {
    guard !bytes.isEmpty else {
      return .failure(
        Problems([
          "the file is empty, as a file being written is (to revoke every token, leave a "
            + "comment line, such as \"# nobody\")"
        ]))
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .failure(Problems(["the file is not UTF-8 text"]))
    }
    guard bytes.last == UInt8(ascii: "\n") else {
      return .failure(
        Problems([
          "the last line does not end with a line break, as in a file still being written"
        ]))
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
