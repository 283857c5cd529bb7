import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService
@testable import HTTP

/// The OpenAPI document (`Sources/ArtworkService/Resources/openapi.json`, served at
/// `/openapi.json`) is valid, and describes exactly the routes the router has and exactly the
/// problem types the service can send. `SchemathesisTests` checks the answers against it.
@Suite struct OpenAPIDocumentTests {
  static func document() throws -> [String: Any] {
    let parsed = try JSONSerialization.jsonObject(with: Data(EmbeddedFile.openAPI.bytes))
    return try #require(parsed as? [String: Any])
  }

  /// `METHOD /path` for every operation of the document, each templated segment written `{}`
  /// (`/v1/images/{id}.{ext}` and the router's `/v1/images/{name}` are both `/v1/images/{}`).
  static func documentedOperations() throws -> Set<String> {
    let paths = try #require(try document()["paths"] as? [String: [String: Any]])
    let methods: Set<String> = ["get", "head", "post", "put", "delete", "patch", "options"]
    var operations: Set<String> = []
    for (path, item) in paths {
      for method in item.keys where methods.contains(method) {
        operations.insert("\(method.uppercased()) \(normalized(path))")
      }
    }
    return operations
  }

  /// The same for the router: GET routes answer HEAD too, and the HTTP layer answers OPTIONS
  /// on every path that has a route.
  static func routedOperations(_ router: Router) -> Set<String> {
    var operations: Set<String> = []
    for (method, pattern) in router.routes {
      let path = normalized(pattern)
      operations.insert("\(method.rawValue) \(path)")
      if method == .get { operations.insert("HEAD \(path)") }
      operations.insert("OPTIONS \(path)")
    }
    return operations
  }

  static func normalized(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false)
      .map { $0.contains("{") ? "{}" : String($0) }.joined(separator: "/")
  }

  @Test func everyRouteIsDocumentedAndNothingElse() async throws {
    let documented = try Self.documentedOperations()
    let routed = try await ServiceHarness.run { Self.routedOperations($0.server.app.router()) }
    #expect(routed.subtracting(documented).isEmpty, "routes not documented")
    #expect(documented.subtracting(routed).isEmpty, "documented, no route")
    #expect(documented.contains("HEAD /v1/images/{}"))
    #expect(documented.contains("GET /openapi.json") && documented.contains("GET /"))
  }

  /// With the page off, its routes are gone from the router (and so answer 404).
  @Test func thePageRoutesGoWithTheUI() async throws {
    let routed = try await ServiceHarness.run(["ARTWORK_UI": "0"]) {
      Self.routedOperations($0.server.app.router())
    }
    #expect(!routed.contains("GET /") && !routed.contains("GET /assets/{}"))
    #expect(routed.contains("GET /openapi.json"))
  }

  /// Every problem type the service can send is listed with its title and status, and nothing
  /// else is.
  @Test func everyProblemTypeIsListedWithItsTitleAndStatus() throws {
    let components = try #require(try Self.document()["components"] as? [String: Any])
    let schemas = try #require(components["schemas"] as? [String: Any])
    let problem = try #require(schemas["Problem"] as? [String: Any])
    let properties = try #require(problem["properties"] as? [String: Any])
    let type = try #require(properties["type"] as? [String: Any])
    let listed = try #require(type["oneOf"] as? [[String: Any]])
    var seen: [String: (title: String, description: String)] = [:]
    for entry in listed {
      let value = try #require(entry["const"] as? String)
      seen[value] = (entry["title"] as? String ?? "", entry["description"] as? String ?? "")
    }
    #expect(seen.count == ArtworkError.Kind.allCases.count)
    for kind in ArtworkError.Kind.allCases {
      let entry = seen["urn:artwork:problem:\(kind.rawValue)"]
      #expect(entry?.title == kind.title, "\(kind)")
      #expect(entry?.description.hasPrefix("\(kind.status). ") == true, "\(kind)")
    }
    let titles = try #require((properties["title"] as? [String: Any])?["enum"] as? [String])
    #expect(Set(titles) == Set(ArtworkError.Kind.allCases.map(\.title)))
  }

  /// The served document is the file, as JSON, revalidated by its ETag.
  @Test func theDocumentIsServedFromTheBinary() async throws {
    let file = Repository.root.appendingPathComponent(
      "Sources/ArtworkService/Resources/openapi.json")
    try await ServiceHarness.run { service in
      let answer = try await service.get("/openapi.json")
      #expect(answer.status == 200)
      #expect(answer.header("Content-Type") == "application/json")
      #expect(answer.body == Array(try Data(contentsOf: file)))
      #expect(answer.header("Access-Control-Allow-Origin") == "*")
      let etag = try #require(answer.header("ETag"))
      let again = try await service.get("/openapi.json", headers: [("If-None-Match", etag)])
      #expect(again.status == 304)
      #expect(again.body.isEmpty)
    }
  }

  /// openapi-spec-validator (PyPI) accepts the document as OpenAPI 3.1.
  @Test func theDocumentValidates() async throws {
    let bin = try await OpenAPITools.installed()
    let file = Repository.root.appendingPathComponent(
      "Sources/ArtworkService/Resources/openapi.json")
    let child = try ServiceProcess(
      executable: "\(bin)/openapi-spec-validator", [file.path],
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    let status = await child.exitStatus(within: .seconds(120))
    #expect(status == 0, "\(child.output)\(child.errorOutput)")
    #expect(child.output.contains("OK"), "\(child.output)")
  }
}
