import ArtworkCore
import Foundation
import HTTP

/// The credential of a request to a route that media applications call
/// (`/v1/providers/{provider}`), in whichever form the application can send it:
/// `Authorization: Bearer <token>` (Overseerr's Authorization Header, Jellyfin's request
/// headers), HTTP Basic with the token as the password and any user name (the username and
/// password fields of Sonarr, Radarr and Lidarr), the token alone as the Authorization
/// header, or `?token=` in the URL (Plex sends no headers). Pure: no I/O.
enum WebhookCredential {
  /// The token the head presents, or nil when it presents none. A Basic header that does not
  /// decode presents nothing, so the request is refused as without a token.
  static func token(_ head: HTTPRequestHead) -> [UInt8]? {
    if let authorization = head.headers["Authorization"] {
      return token(authorization: authorization)
    }
    guard let query = head.query["token"], !query.isEmpty else { return nil }
    return Array(query.utf8)
  }

  /// The token of an Authorization value: after `Bearer `, the password of `Basic `, or the
  /// whole value when it is one word.
  static func token(authorization: String) -> [UInt8]? {
    let value = authorization.trimmingCharacters(in: .whitespaces)
    guard let space = value.firstIndex(of: " ") else {
      // A scheme with nothing after it presents nothing.
      let isScheme = ["bearer", "basic"].contains(value.lowercased())
      return value.isEmpty || isScheme ? nil : Array(value.utf8)
    }
    let scheme = value[..<space].lowercased()
    let rest = value[value.index(after: space)...].trimmingCharacters(in: .whitespaces)
    switch scheme {
    case "bearer": return rest.isEmpty ? nil : Array(rest.utf8)
    case "basic":
      guard let decoded = Data(base64Encoded: rest), let colon = decoded.firstIndex(of: 0x3A)
      else { return nil }
      let password = Array(decoded[decoded.index(after: colon)...])
      return password.isEmpty ? nil : password
    default: return nil
    }
  }

  /// The 401 detail for a webhook route: every way the token may come.
  static let missing =
    "This endpoint needs the token: `Authorization: Bearer <token>`, HTTP Basic with the token "
    + "as the password (any user name), or `?token=<token>` in the URL."
  static let wrong = "The token is not valid."
}
