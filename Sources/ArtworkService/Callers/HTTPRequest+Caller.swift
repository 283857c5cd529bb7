import HTTP

extension HTTPRequest {
  /// Who sent the request, as the route's `CallerCheck` named it: a token's name, or
  /// `anonymous` (no token configured, or a route without a check).
  var caller: String { head.caller ?? APIToken.anonymous }
}
