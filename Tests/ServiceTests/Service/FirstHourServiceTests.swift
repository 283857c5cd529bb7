import Foundation
import TestSupport
import Testing

@testable import ArtworkService

/// What a new operator meets one step off the quick start, against a running service.
@Suite struct FirstHourServiceTests {
  /// Started on a port of its own without ARTWORK_PUBLIC_URL: the URLs it answers are where it
  /// listens, and they load.
  @Test func hostedURLsPointWhereTheServiceListens() async throws {
    let service = try await RunningArtwork(["ARTWORK_PUBLIC_URL": ""])
    let uploaded = try await service.upload(Fixtures.bytes("coffee.jpg"))
    #expect(uploaded.status == 201, "\(uploaded.text)")
    let url = try #require(uploaded.string("image_url"))
    #expect(url.hasPrefix("http://127.0.0.1:\(service.port)/v1/images/"), "\(url)")
    let path = try #require(uploaded.imagePath)
    let image = try await service.get(path)
    #expect(image.status == 200 && image.body.count > 1000)
    await service.stop()
  }

  /// A 413 says which body was too large and which setting sets the limit.
  @Test func anUploadTooLargeNamesTheBodyAndTheSetting() async throws {
    let service = try await URLSourceFixture.allowing.value
    let big = [UInt8](repeating: 0xFF, count: 1_200_000)
    let refused = try await service.upload(big)
    #expect(refused.isProblem(413), "\(refused.text)")
    let detail = try #require(refused.string("detail"))
    #expect(
      detail.contains("uploaded body") && detail.contains("ARTWORK_MAX_SOURCE_BYTES"), "\(detail)")
  }

  /// A source over the limit: the source at its (redacted) URL with its size, not the
  /// caller's body, and the setting.
  @Test func aSourceTooLargeNamesTheSourceItsSizeAndTheSetting() async throws {
    let service = try await URLSourceFixture.allowing.value
    let unique = URLSourceFixture.unique().dropFirst()
    let source = try URLSourceFixture.url("/declared-huge?api_key=s3cr3t-value&" + unique)
    let refused = try await service.post("/v1/artwork", url: source)
    #expect(refused.isProblem(413), "\(refused.text)")
    let detail = try #require(refused.string("detail"))
    #expect(detail.contains("/declared-huge") && detail.contains("REDACTED"), "\(detail)")
    #expect(!detail.contains("s3cr3t-value"))
    #expect(detail.contains("Content-Length") && detail.contains("ARTWORK_MAX_SOURCE_BYTES"))
    #expect(detail.contains("50,000,000") || detail.contains("50000000"), "\(detail)")
    #expect(refused.string("reason") == "size")
  }

  /// One rule for shapes on both routes: any case is accepted, and /v1/content answers the
  /// relay's lower-case name.
  @Test func aShapeInAnotherCaseIsTheShapeOnBothRoutes() async throws {
    let service = try await URLSourceFixture.allowing.value
    let source = try URLSourceFixture.url("/image.jpg" + URLSourceFixture.unique())
    let artwork = try await service.post("/v1/artwork", url: source, options: ["shape": "Poster"])
    #expect(artwork.status == 201, "\(artwork.text)")
    #expect(artwork.string("image_shape") == "poster")
    let content = try await service.post(
      "/v1/content", json: #"{"template":"media","image_url":"\#(source)","image_shape":"POSTER"}"#)
    #expect(content.status == 200, "\(content.text)")
    #expect(content.string("image_shape") == "poster")
    #expect(content.string("image_url") == artwork.string("image_url"))
    let noURL = try await service.post("/v1/content", json: #"{"image_shape":"Circle"}"#)
    #expect(noURL.text == #"{"image_shape":"circle"}"#)
  }
}
