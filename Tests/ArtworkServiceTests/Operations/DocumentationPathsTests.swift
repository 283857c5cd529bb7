import Testing

@testable import ArtworkService

@Suite struct DocumentationPathsTests {
  @Test(arguments: [
    "/docs", "/docs/", "/DOCS/index.html", "/api", "/api-docs", "/swagger", "/swagger-ui/",
    "/swagger.json", "/openapi", "/redoc", "/v1",
  ])
  func aPathThatLooksLikeDocumentationIsSentToThePageAndTheContract(path: String) {
    #expect(
      DocumentationPaths(pageServed: true).hint(for: path)
        == "The service's page is at / and its API described at /openapi.json.")
    #expect(
      DocumentationPaths(pageServed: false).hint(for: path)
        == "The service's API is described at /openapi.json.")
  }

  @Test(arguments: ["/", "/favicon.ico", "/robots.txt", "/images/x.jpg", "/apis", "/documents"])
  func otherPathsGetNoHint(path: String) {
    #expect(DocumentationPaths(pageServed: true).hint(for: path) == nil)
  }
}
