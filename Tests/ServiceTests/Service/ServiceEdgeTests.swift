import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// Request forms at the edges of what the API accepts, and races on one object.
@Suite struct ServiceEdgeTests {
  /// Identical uploads at once all get the one URL; one object is stored, no temporary is left.
  @Test func identicalConcurrentUploadsShareOneObject() async throws {
    try await ServiceHarness.run { service in
      let source = Fixtures.bytes("rocket.jpg")
      let responses = try await withThrowingTaskGroup(of: LoopbackHTTPResponse.self) { group in
        for _ in 0..<12 {
          group.addTask { try await service.upload(source, fields: [("size", "96")]) }
        }
        var responses: [LoopbackHTTPResponse] = []
        for try await response in group { responses.append(response) }
        return responses
      }
      #expect(responses.allSatisfy { $0.status == 201 })
      #expect(Set(responses.compactMap { $0.object["image_url"] as? String }).count == 1)
      #expect(service.objectFiles().count == 1)
      let leftovers = try FileManager.default.contentsOfDirectory(
        atPath: service.storage.appendingPathComponent("tmp").path)
      #expect(leftovers.isEmpty)
    }
  }

  @Test func acceptedRequestForms() async throws {
    try await ServiceHarness.run { service in
      let jpeg = Fixtures.bytes("coffee.jpg")
      // Boundaries of size; the alias image/jpg; a part without a type; octet-stream; HEIF.
      #expect(try await service.upload(jpeg, fields: [("size", "64")]).status == 201)
      #expect(try await service.upload(jpeg, fields: [("size", "1200")]).status == 201)
      expectProblem(try await service.upload(jpeg, fields: [("size", "1201")]), 400)
      #expect(try await service.uploadRaw(jpeg, type: "image/jpg").status == 201)
      #expect(try await service.uploadRaw(jpeg, type: "IMAGE/JPEG; charset=x").status == 201)
      #expect(
        try await service.upload(jpeg, type: "application/octet-stream", fields: [("size", "64")])
          .status == 201)
      let heic = try await service.uploadRaw(
        Fixtures.bytes("photo.heic"), type: "image/heif", path: "/v1/artwork?size=64")
      #expect(heic.status == 201, "\(heic.text)")

      var untyped = MultipartForm(fields: [("size", "72")], image: nil)
      let boundary = untyped.boundary
      untyped.bytes =
        Array(
          ("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a\"\r\n\r\n")
            .utf8) + jpeg + Array("\r\n--\(boundary)--\r\n".utf8)
      let noType = try await service.send(
        LoopbackHTTPRequest(
          "POST", "/v1/artwork?size=72", headers: [("Content-Type", untyped.contentType)],
          body: .bytes(untyped.bytes)))
      #expect(noType.status == 201, "\(noType.text)")
      #expect(noType.object["width"] as? Int == 72)

      // A form field wins over the same option in the query.
      let both = try await service.upload(
        jpeg, fields: [("size", "80")], path: "/v1/artwork?size=90")
      #expect(both.object["width"] as? Int == 80)

      // Two image parts are ambiguous.
      let one = MultipartForm(fields: [], image: jpeg)
      let twice =
        one.bytes.dropLast("--\(one.boundary)--\r\n".utf8.count)
        + one.bytes
      let doubled = try await service.send(
        LoopbackHTTPRequest(
          "POST", "/v1/artwork", headers: [("Content-Type", one.contentType)],
          body: .bytes(Array(twice))))
      expectProblem(doubled, 400)
    }
  }

  @Test func wrongMethodsAndRoutes() async throws {
    try await ServiceHarness.run { service in
      let put = try await service.send(LoopbackHTTPRequest("PUT", "/v1/artwork"))
      expectProblem(put, 405)
      #expect(put.header("Allow")?.contains("POST") == true)
      let putImage = try await service.send(LoopbackHTTPRequest("PUT", "/v1/images/x.jpg"))
      expectProblem(putImage, 405)
      #expect(putImage.header("Allow") == "GET, HEAD, DELETE")
      // DELETE is a route of its own now: a name that is not a key is a 404.
      expectProblem(try await service.send(LoopbackHTTPRequest("DELETE", "/v1/images/x.jpg")), 404)
      expectProblem(try await service.get("/v1/nothing"), 404)
      expectProblem(try await service.get("/v1/thumbhash/AAAA"), 404)
      let ready = try await service.get("/readyz")
      #expect(ready.status == 200)
    }
  }

  /// A newcomer's guess at the documentation is a 404 that says where it is.
  @Test(arguments: [true, false])
  func aGuessAtTheDocumentationIsSentToIt(page: Bool) async throws {
    try await ServiceHarness.run(["ARTWORK_UI": page ? "1" : "0"]) { service in
      for path in ["/docs", "/swagger", "/api/"] {
        let missing = try await service.get(path)
        expectProblem(missing, 404)
        #expect(missing.text.contains("/openapi.json"), "\(path): \(missing.text)")
        #expect(missing.text.contains("page is at /") == page, "\(path): \(missing.text)")
      }
      #expect(try await service.get("/openapi.json").status == 200)
      #expect(try await service.get("/").status == (page ? 200 : 404))
      #expect(!(try await service.get("/nothing")).text.contains("openapi"))
    }
  }
}
