/// Where a newcomer who guesses a documentation path (`/docs`, `/api`, `/swagger`...) is sent:
/// the 404 of such a path names the page at `/` (when it is served) and the API's contract at
/// `/openapi.json`, instead of only saying that nothing is there.
struct DocumentationPaths: Sendable {
  /// Whether the page for people is served at `/` (`ARTWORK_UI`).
  let pageServed: Bool

  /// The first segments that frameworks and API gateways commonly serve documentation under,
  /// lower case.
  static let guesses: Set<String> = [
    "doc", "docs", "documentation", "api", "api-docs", "apidocs", "swagger", "swagger-ui",
    "swagger.json", "openapi", "openapi.yaml", "openapi.yml", "redoc", "help", "v1",
  ]

  /// The sentence for `path`'s 404, or nil when it does not look like documentation.
  func hint(for path: String) -> String? {
    let first = path.split(separator: "/", maxSplits: 1).first.map { $0.lowercased() }
    guard let first, Self.guesses.contains(first) else { return nil }
    return pageServed
      ? "The service's page is at / and its API described at /openapi.json."
      : "The service's API is described at /openapi.json."
  }
}
