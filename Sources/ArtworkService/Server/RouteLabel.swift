/// The route a request path belongs to, as a low-cardinality metrics label: ids and hashes in
/// paths would otherwise make one series per image.
enum RouteLabel {
  static func of(_ path: String) -> String {
    switch path {
    case "/v1/artwork", "/v1/thumbhash", "/v1/check", "/healthz", "/readyz", "/metrics": path
    case _ where path.hasPrefix("/v1/images/"): "/v1/images/{name}"
    case _ where path.hasPrefix("/v1/thumbhash/"): "/v1/thumbhash/{name}"
    default: "other"
    }
  }
}
