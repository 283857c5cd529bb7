import ArtworkCore
import Foundation
import HTTP
import Testing

@testable import ArtworkService

/// The forms a media application can send its token in, on the webhook route only.
@Suite struct WebhookCredentialTests {
  static let token = "plex-token-0123456789"

  static func head(_ target: String, authorization: String? = nil) throws -> HTTPRequestHead {
    var headers = HTTPHeaders()
    if let authorization { headers.add("Authorization", authorization) }
    return try #require(
      HTTPRequestHead(id: "t", method: .post, target: target, headers: headers))
  }

  static func basic(_ user: String, _ password: String) -> String {
    "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
  }

  @Test func everyFormGivesTheToken() throws {
    let expected = Array(Self.token.utf8)
    let forms: [(String, String?)] = [
      ("/v1/providers/sonarr", "Bearer \(Self.token)"),
      ("/v1/providers/sonarr", "bearer  \(Self.token) "),
      ("/v1/providers/sonarr", Self.basic("sonarr", Self.token)),
      ("/v1/providers/sonarr", Self.basic("", Self.token)),
      ("/v1/providers/overseerr", Self.token),
      ("/v1/providers/plex?token=\(Self.token)", nil),
      ("/v1/providers/plex?size=400&token=\(Self.token)", nil),
    ]
    for (target, authorization) in forms {
      #expect(
        WebhookCredential.token(try Self.head(target, authorization: authorization)) == expected,
        "\(target) \(authorization ?? "")")
    }
  }

  /// A password containing a colon is the password: only the first colon ends the user name.
  @Test func aColonInThePasswordIsKept() throws {
    let head = try Self.head("/", authorization: Self.basic("u", "a:b"))
    #expect(WebhookCredential.token(head) == Array("a:b".utf8))
  }

  @Test func nothingPresentedIsNil() throws {
    for authorization in [
      "Basic !!!", "Basic " + Data("nocolon".utf8).base64EncodedString(),
      Self.basic("user", ""), "Bearer ", "Digest x", "",
    ] {
      #expect(
        WebhookCredential.token(try Self.head("/", authorization: authorization)) == nil,
        "\(authorization)")
    }
    #expect(WebhookCredential.token(try Self.head("/v1/providers/plex?token=")) == nil)
    #expect(WebhookCredential.token(try Self.head("/v1/providers/plex")) == nil)
  }

  @Test func theAuthenticatorNamesTheCaller() throws {
    let authenticator = Authenticator(tokens: [APIToken(name: "plex", secret: Self.token)])
    #expect(try authenticator.authenticate(webhookToken: Array(Self.token.utf8)).name == "plex")
    do {
      _ = try authenticator.authenticate(webhookToken: nil)
      Issue.record("no token passed")
    } catch {
      #expect(error.kind == .unauthorized && error.detail.contains("?token="))
    }
    #expect(throws: ArtworkError.self) {
      try authenticator.authenticate(webhookToken: Array("plex-token-012345678".utf8))
    }
    // Bearer only on the other routes: Basic is refused there.
    #expect(throws: ArtworkError.self) {
      try authenticator.authenticate(Self.basic("u", Self.token))
    }
    let open = Authenticator(tokens: [])
    #expect(try open.authenticate(webhookToken: nil).name == APIToken.anonymous)
  }
}
