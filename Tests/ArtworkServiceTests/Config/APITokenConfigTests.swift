import ArtworkCore
import Foundation
import Testing

@testable import ArtworkService

/// `ARTWORK_API_TOKENS` with names, `ARTWORK_API_TOKENS_FILE` and `ARTWORK_API_RATE` as read at
/// start-up: every problem reported, no token ever quoted.
@Suite struct APITokenConfigTests {
  static func problems(_ environment: [String: String]) -> [String] {
    do {
      _ = try ServiceConfig(environment: environment)
      return []
    } catch {
      return error.problems
    }
  }

  static func file(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-tokens-\(UUID().uuidString)").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func namedAndBareTokensMix() throws {
    let config = try ServiceConfig(environment: [
      "ARTWORK_API_TOKENS":
        "relay:relay-token-0123456789, bare-token-0123456789 ,jellyfin.tv-2:j-token-0123456789",
      "ARTWORK_API_RATE": "2",
    ])
    #expect(config.apiTokens.map(\.name) == ["relay", "token-2", "jellyfin.tv-2"])
    #expect(
      config.apiTokens.map(\.secret)
        == ["relay-token-0123456789", "bare-token-0123456789", "j-token-0123456789"])
    #expect(config.apiRate == 2)
    #expect(config.requiresToken)
  }

  @Test(arguments: [
    ("bad name:token-0123456789abcdef", "may use only letters"),
    ("anonymous:token-0123456789abcdef", "kept for requests without a token"),
    (":token-0123456789abcdef", "1 to 64 characters"),
    ("relay:tok:en-0123456789abcdef", "':'"),
    ("relay:", "the token is empty"),
    ("relay:token 0123456789abcdef", "spaces"),
  ])
  func badEntriesAreRefusedWithoutShowingTheToken(entry: String, words: String) {
    let problems = Self.problems(["ARTWORK_API_TOKENS": "first-token-0123456789,\(entry)"])
    #expect(problems.count == 1, "\(problems)")
    let problem = problems.first ?? ""
    #expect(problem.contains("token 2 of 2") && problem.contains(words), "\(problem)")
    #expect(!problem.contains("0123456789abcdef") && problem.contains("value hidden"))
  }

  @Test func namesAndTokensAreUniqueAcrossTheVariableAndTheFile() throws {
    let path = try Self.file("relay:file-token-0123456789\nother:env-token-0123456789\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let problems = Self.problems([
      "ARTWORK_API_TOKENS": "relay:env-token-0123456789", "ARTWORK_API_TOKENS_FILE": path,
    ])
    #expect(problems.contains { $0.contains("\"relay\" is given to more than one token") })
    #expect(problems.contains { $0.contains("\"relay\" and \"other\" have the same token") })
    #expect(!problems.joined().contains("token-0123456789"), "\(problems)")
  }

  @Test func theFileHasOneNamedTokenALineWithCommentsAndBlankLines() throws {
    let path = try Self.file(
      "# integrations\n\nrelay:relay-token-0123456789\r\n  plex:plex-token-0123456789  \n#old:x\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let config = try ServiceConfig(environment: [
      "ARTWORK_API_TOKENS_FILE": path, "ARTWORK_LISTEN": "0.0.0.0:8080",
    ])
    #expect(config.fileTokens.map(\.name) == ["relay", "plex"])
    #expect(config.apiTokens.isEmpty && config.requiresToken)
    #expect(config.summary["api_tokens"] == 2)
  }

  /// An empty file still requires a token: revoking the last one never opens the service.
  @Test func anEmptyFileLetsNobodyIn() throws {
    let path = try Self.file("# nobody yet\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let config = try ServiceConfig(environment: ["ARTWORK_API_TOKENS_FILE": path])
    #expect(config.requiresToken)
    let authenticator = Authenticator(
      tokens: config.apiTokens, file: path, fileTokens: config.fileTokens)
    #expect(throws: ArtworkError.self) { try authenticator.authenticate("Bearer anything-at-all") }
  }

  @Test func aBadFileIsAStartUpErrorNamingItsLines() throws {
    let path = try Self.file("relay:relay-token-0123456789\nno-colon-secret-0123456789\nx y:t\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let problems = Self.problems(["ARTWORK_API_TOKENS_FILE": path])
    #expect(problems.count == 2, "\(problems)")
    #expect(problems.first?.contains("line 2: expected name:token") == true, "\(problems)")
    // The name is not quoted: a line written token:name would put the token in the log.
    #expect(problems.last?.contains("line 3: a name (3 bytes)") == true, "\(problems)")
    #expect(!problems.joined().contains("secret-0123456789"))
    let missing = Self.problems(["ARTWORK_API_TOKENS_FILE": path + "-missing"])
    #expect(missing.first?.contains("cannot read") == true, "\(missing)")
  }

  /// A token under 16 characters stops the start-up, from the variable (bare or named) and
  /// from the file alike; 16 is enough.
  @Test func aTokenUnder16CharactersIsRefused() throws {
    for entry in ["x", "relay:x", "relay:0123456789abcde"] {
      let problems = Self.problems(["ARTWORK_API_TOKENS": entry])
      #expect(problems.count == 1, "\(entry): \(problems)")
      #expect(problems.first?.contains("token 1 of 1: the token is shorter than 16") == true)
      #expect(problems.first?.contains("value hidden") == true, "\(problems)")
    }
    #expect(Self.problems(["ARTWORK_API_TOKENS": "relay:0123456789abcdef"]).isEmpty)
    let path = try Self.file("relay:relay-token-0123456789\nplex:short-token\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let problems = Self.problems(["ARTWORK_API_TOKENS_FILE": path])
    #expect(problems.count == 1, "\(problems)")
    #expect(problems.first?.contains("line 2: the token is shorter than 16") == true)
    #expect(!problems.joined().contains("short-token"))
  }

  /// What a file caught while being written looks like is refused, whole: empty, or cut in
  /// its last line (no line break at the end).
  @Test func aFileThatLooksHalfWrittenIsRefused() throws {
    let cut = try Self.file("relay:relay-token-0123456789\nplex:plex-tok")
    let empty = try Self.file("")
    defer {
      try? FileManager.default.removeItem(atPath: cut)
      try? FileManager.default.removeItem(atPath: empty)
    }
    let cutProblems = Self.problems(["ARTWORK_API_TOKENS_FILE": cut])
    #expect(cutProblems.count == 1, "\(cutProblems)")
    #expect(cutProblems.first?.contains("does not end with a line break") == true)
    let emptyProblems = Self.problems(["ARTWORK_API_TOKENS_FILE": empty])
    #expect(emptyProblems.first?.contains("the file is empty") == true, "\(emptyProblems)")
    // Line breaks of any kind, the last one included, are fine.
    #expect(throws: Never.self) {
      try APITokenFile.parse(Array("a:relay-token-0123456789\r\n".utf8)).get()
    }
  }

  /// The file's bytes are taken when two reads in a row agree: a file that grew between two
  /// reads is read again, and one that never settles is refused.
  @Test func theFileIsTakenWhenTwoReadsAgree() {
    var reads = [
      "relay:relay-tok", "relay:relay-token-0123456789\n", "relay:relay-token-0123456789\n",
    ].map { Array($0.utf8) }[...]
    #expect(
      APITokenFile.settled(pause: 0) { reads.popFirst() }
        == .read(Array("relay:relay-token-0123456789\n".utf8)))
    #expect(reads.isEmpty)
    var growing = 0
    #expect(
      APITokenFile.settled(pause: 0) {
        growing += 1
        return Array(String(repeating: "#\n", count: growing).utf8)
      } == .changing)
    #expect(growing == APITokenFile.reads)
    #expect(APITokenFile.settled(pause: 0) { nil } == .unreadable)
  }

  @Test(arguments: ["-1", "two", "1000001", "1.5"])
  func aBadRateIsRefused(value: String) {
    let problems = Self.problems(["ARTWORK_API_RATE": value])
    #expect(problems.first?.hasPrefix("ARTWORK_API_RATE=") == true, "\(problems)")
  }
}
