import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// The lookup and the DELETE as a relay's own clients make them: Python's urllib and Node's
/// fetch, each on an image of its own.
@Suite struct RelayClientDeletionTests {
  static let fixtures = Repository.root.appendingPathComponent(
    "Tests/ServiceTests/HostedImages/Fixtures")

  @Test(arguments: ["python3", "node"])
  func aRelayLooksUpThenDeletes(client: String) async throws {
    let hosted = try await HostedImageService.start()
    let url = try URLSourceFixture.url(
      "/image.jpg?sig=relay-secret&c=\(client)" + URLSourceFixture.unique())
    let created = try await hosted.post(url: url, size: client == "node" ? 100 : 104)
    #expect(created.status == 201, "\(created.text)")
    let path = try #require(created.imagePath)
    let script = Self.fixtures.appendingPathComponent(
      client == "node" ? "relay_images.mjs" : "relay_images.py")
    let run = try await ServiceProcess.runProgram(
      client,
      [script.path, "http://127.0.0.1:\(hosted.port)", HostedImageService.token, path])
    #expect(run.status == 0, "\(run.error)")
    let result =
      try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] ?? [:]
    #expect(result["facts_status"] as? Int == 200, "\(run.output)")
    #expect(result["facts_type"] as? String == "application/json")
    let facts = result["facts"] as? [String: Any] ?? [:]
    #expect(facts["image_thumbhash"] as? String == created.string("image_thumbhash"))
    #expect(facts["image_url"] as? String == created.string("image_url"))
    #expect(facts["width"] as? Int == created.json["width"] as? Int)
    // Public: the source's host and path, no query at all.
    let source = facts["source_url"] as? String
    #expect(source?.hasPrefix("http://127.0.0.1:") == true && source?.contains("?") == false)
    let problem = "application/problem+json"
    #expect(result["unauthorised"] as? [AnyHashable] == [401, problem, 401], "\(run.output)")
    #expect(result["deleted"] as? [Int] == [204, 0])
    #expect(result["image_after"] as? [AnyHashable] == [404, problem, 404])
    #expect(result["facts_after"] as? [AnyHashable] == [404, problem, 404])
    #expect(result["deleted_again"] as? [AnyHashable] == [404, problem, 404])
    await hosted.stop()
  }
}
