import Testing

@testable import ArtworkService

/// The traps a new operator meets first: the public URL follows the listen address when unset,
/// and a mistyped variable is answered with the name meant.
@Suite struct FirstHourConfigTests {
  @Test(arguments: [
    ("127.0.0.1:19201", "http://127.0.0.1:19201"),
    ("localhost:9000", "http://127.0.0.1:9000"),
    ("[::1]:8081", "http://[::1]:8081"),
    ("0.0.0.0:8080", "http://127.0.0.1:8080"),
    ("[::]:8080", "http://[::1]:8080"),
  ])
  func theDefaultPublicURLFollowsTheListenAddress(listen: String, expected: String) throws {
    let config = try ServiceConfig(environment: [
      "ARTWORK_LISTEN": listen, "ARTWORK_ALLOW_ANONYMOUS": "1",
    ])
    #expect(config.publicURL == expected)
    #expect(config.publicURLFollowsListen)
  }

  /// A configured public URL that differs from the listen address is what a proxy is for.
  @Test func aConfiguredPublicURLIsKept() throws {
    let config = try ServiceConfig(environment: [
      "ARTWORK_LISTEN": "127.0.0.1:19201", "ARTWORK_PUBLIC_URL": "https://img.example.org",
    ])
    #expect(config.publicURL == "https://img.example.org")
    #expect(!config.publicURLFollowsListen)
  }

  @Test(arguments: [
    ("ARTWORK_PUBLIC_ULR", "ARTWORK_PUBLIC_URL"), ("ARTWORK_WORKRES", "ARTWORK_WORKERS"),
    ("ARTWORK_API_TOKEN", "ARTWORK_API_TOKENS"), ("artwork_listen", "ARTWORK_LISTEN"),
    ("ARTWORK_MAX_SOURCE_BYTE", "ARTWORK_MAX_SOURCE_BYTES"),
  ])
  func aTypoIsAnsweredWithTheNameMeant(typo: String, meant: String) {
    #expect(ServiceConfig.closestKnown(to: typo, among: Self.known) == meant)
  }

  @Test func aNameFarFromEveryOneGetsNoGuessAndNoList() throws {
    #expect(ServiceConfig.closestKnown(to: "ARTWORK_COLOUR_SCHEME", among: Self.known) == nil)
    do {
      _ = try ServiceConfig(environment: ["ARTWORK_PUBLIC_ULR": "https://x.example"])
      Issue.record("a typo was accepted")
    } catch {
      #expect(
        error.problems == ["unknown variable ARTWORK_PUBLIC_ULR: did you mean ARTWORK_PUBLIC_URL?"])
    }
  }

  @Test func editDistanceCountsOneSwapAsOneEdit() {
    #expect(ServiceConfig.editDistance(Array("ULR".utf8), Array("URL".utf8)) == 1)
    #expect(ServiceConfig.editDistance(Array("".utf8), Array("abc".utf8)) == 3)
    #expect(ServiceConfig.editDistance(Array("kitten".utf8), Array("sitting".utf8)) == 3)
  }

  static let known = Set(ServiceConfig.documentation.map(\.key))
}
