import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// A DELETE and a create of the same image, sent at once, hundreds of times: whichever finishes
/// first, nothing true is lost and nothing false is remembered. A create answered 201 after the
/// DELETE's 204 has its object stored; after the race, the URL's result (remembered or made
/// again) and `/v1/content` point at an image that loads.
enum DeletionRace {
  /// What the tries saw.
  struct Tally: CustomStringConvertible {
    var tries = 0
    /// Creates whose 201 arrived after the DELETE's 204.
    var createdAfterDeletion = 0
    /// Answers that pointed at an image that did not load.
    var dead: [String] = []

    var description: String {
      "\(tries) tries, \(createdAfterDeletion) created after the deletion, \(dead.count) dead"
    }
  }

  /// Uploads of one image raced against its DELETE.
  static func uploads(_ hosted: HostedImageService, tries: Int) async throws -> Tally {
    let first = try await hosted.upload()
    let path = try #require(first.imagePath, "\(first.text)")
    var tally = Tally()
    for _ in 0..<tries {
      async let created = timed { try await hosted.upload() }
      async let deleted = timed { try await hosted.delete(path) }
      let (create, createdAt) = try await created
      let (delete, deletedAt) = try await deleted
      #expect(create.status == 201, "\(create.text)")
      #expect([204, 404].contains(delete.status), "\(delete.text)")
      tally.tries += 1
      if delete.status == 204, createdAt > deletedAt {
        tally.createdAfterDeletion += 1
        if try await hosted.get(path).status != 200 { tally.dead.append("upload after 204") }
      }
    }
    return tally
  }

  /// URL creates (each a new URL of the same image) raced against the image's DELETE; then the
  /// URL asked again, and in a relay's content.
  static func urls(_ hosted: HostedImageService, tries: Int) async throws -> Tally {
    let base = "/image.jpg" + URLSourceFixture.unique()
    let first = try await hosted.post(url: try URLSourceFixture.url(base + "-first"))
    let path = try #require(first.imagePath, "\(first.text)")
    var tally = Tally()
    for index in 0..<tries {
      let url = try URLSourceFixture.url(base + "-\(index)")
      async let created = timed { try await hosted.post(url: url) }
      async let deleted = timed { try await hosted.delete(path) }
      let (create, createdAt) = try await created
      let (delete, deletedAt) = try await deleted
      #expect(create.status == 201, "\(create.text)")
      #expect([204, 404].contains(delete.status), "\(delete.text)")
      tally.tries += 1
      if delete.status == 204, createdAt > deletedAt {
        tally.createdAfterDeletion += 1
        if try await hosted.get(path).status != 200 { tally.dead.append("URL create after 204") }
      }
      // Whatever the order, the URL's answer now loads: remembered only while its image is.
      let again = try await hosted.post(url: url)
      let againPath = try #require(again.imagePath, "\(again.text)")
      if try await hosted.get(againPath).status != 200 {
        tally.dead.append("remembered result \(index) (age \(again.header("Age") ?? "none"))")
      }
      let content = try await hosted.send(
        "POST", "/v1/content?size=96", json: #"{"image_url":"\#(url)"}"#)
      let filled = try #require(content.string("image_url"), "\(content.text)")
      let filledPath = String(filled[try #require(filled.range(of: "/v1/images/")).lowerBound...])
      if try await hosted.get(filledPath).status != 200 {
        tally.dead.append("content \(index)")
      }
    }
    return tally
  }

  /// `work`'s answer and when it arrived.
  private static func timed(
    _ work: @Sendable () async throws -> LoopbackHTTPResponse
  ) async throws -> (LoopbackHTTPResponse, ContinuousClock.Instant) {
    let response = try await work()
    return (response, ContinuousClock.now)
  }
}

@Suite struct DeletionRaceTests {
  @Test func uploadsRacingTheirDeletionOnTheFilesystem() async throws {
    let hosted = try await HostedImageService.start()
    let tally = try await DeletionRace.uploads(hosted, tries: 200)
    #expect(tally.dead.isEmpty, "\(tally): \(tally.dead)")
    await hosted.stop()
  }

  @Test func urlCreatesRacingTheirDeletionOnTheFilesystem() async throws {
    let hosted = try await HostedImageService.start()
    let tally = try await DeletionRace.urls(hosted, tries: 200)
    #expect(tally.dead.isEmpty, "\(tally): \(tally.dead)")
    await hosted.stop()
  }
}

extension ReplicaSuites {
  /// The same races on S3 storage (SeaweedFS).
  @Suite(.seaweedFS) struct S3DeletionRaceTests {
    @Test func uploadsAndURLCreatesRacingTheirDeletion() async throws {
      let hosted = try await HostedImageService.start(
        try Replica.environment(prefix: "races-\(UUID().uuidString.prefix(8))"))
      let uploads = try await DeletionRace.uploads(hosted, tries: 100)
      #expect(uploads.dead.isEmpty, "\(uploads): \(uploads.dead)")
      let urls = try await DeletionRace.urls(hosted, tries: 100)
      #expect(urls.dead.isEmpty, "\(urls): \(urls.dead)")
      await hosted.stop()
    }
  }
}
