/// A bearer token and the name of the caller it stands for.
///
/// Tokens come from `ARTWORK_API_TOKENS` (`name:token` pairs, or bare tokens named `token-1`,
/// `token-2`... by their position in the variable) and from `ARTWORK_API_TOKENS_FILE` (one
/// `name:token` a line). The name is what the access log and the metrics say; the token is
/// never written anywhere.
struct APIToken: Sendable, Equatable {
  /// The caller's name: 1 to 64 of `[A-Za-z0-9._-]`, never `anonymous`.
  let name: String
  /// The bearer token: at least `minimumLength` characters of visible ASCII without `:`
  /// (RFC 6750's token characters are a subset).
  let secret: String

  /// The fewest characters a token may have: 16 visible ASCII characters are beyond guessing
  /// at any rate a network allows; a shorter one is refused wherever it is configured.
  static let minimumLength = 16

  /// The name of every request that presents no token of a caller (and of every request when
  /// no token is configured).
  static let anonymous = "anonymous"

  /// Why `name` cannot name a caller, or nil when it can.
  static func problem(name: String) -> String? {
    guard !name.isEmpty, name.utf8.count <= 64 else {
      return "a name must have 1 to 64 characters"
    }
    guard name.utf8.allSatisfy(isNameByte) else {
      // Not quoted: a line written the wrong way round (token:name) would put a secret here.
      return "a name (\(name.utf8.count) bytes) may use only letters, digits, '.', '_' and '-'"
    }
    guard name != anonymous else {
      return "the name \"anonymous\" is kept for requests without a token"
    }
    return nil
  }

  /// Why `secret` cannot be a bearer token, or nil when it can. Never quotes the token.
  static func problem(secret: String) -> String? {
    guard !secret.isEmpty else { return "the token is empty" }
    guard secret.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: ":") })
    else {
      return "the token has spaces, ':', control or non-ASCII characters"
    }
    guard secret.utf8.count >= minimumLength else {
      return "the token is shorter than \(minimumLength) characters, too easy to guess; "
        + howToMakeOne
    }
    let lowered = secret.lowercased()
    if placeholders.contains(where: { lowered.contains($0) }) {
      return "the token is still a placeholder (as deploy/artwork.env ships it); "
        + howToMakeOne
    }
    return nil
  }

  /// What the example files put where a token goes: a service started with one of them as is
  /// would let in anyone who has read the example.
  static let placeholders = ["change-me", "changeme", "replace-me", "replaceme"]

  /// The refusals' advice.
  static let howToMakeOne = "make one with `openssl rand -hex 32`"

  /// One entry as written (`name:token`, or a bare token named `fallbackName`): the token, or
  /// why the entry is refused.
  static func parse(_ entry: String, fallbackName: String?) -> Result<APIToken, EntryProblem> {
    let name: String
    let secret: String
    if let colon = entry.firstIndex(of: ":") {
      name = String(entry[..<colon])
      secret = String(entry[entry.index(after: colon)...])
    } else if let fallbackName {
      name = fallbackName
      secret = entry
    } else {
      return .failure(EntryProblem("expected name:token"))
    }
    if let problem = problem(name: name) { return .failure(EntryProblem(problem)) }
    if let problem = problem(secret: secret) { return .failure(EntryProblem(problem)) }
    return .success(APIToken(name: name, secret: secret))
  }

  /// Why a set of tokens cannot be used together: a name given twice, or one token under two
  /// names (it could name only one caller). Empty when they can.
  static func conflicts(_ tokens: [APIToken]) -> [String] {
    var problems: [String] = []
    var names: Set<String> = []
    var secrets: [String: String] = [:]
    for token in tokens {
      if !names.insert(token.name).inserted {
        problems.append("the name \"\(token.name)\" is given to more than one token")
      }
      if let first = secrets[token.secret] {
        problems.append("\"\(first)\" and \"\(token.name)\" have the same token")
      } else {
        secrets[token.secret] = token.name
      }
    }
    return problems
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "-"):
      true
    default: false
    }
  }

  /// Why one entry was refused, in a phrase that follows its position ("line 3: ...").
  struct EntryProblem: Error, Equatable {
    let text: String
    init(_ text: String) { self.text = text }
  }
}
