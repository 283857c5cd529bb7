import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

/// Speed must not cost quality: the framed picture (before encoding) against a reference made
/// from the full-resolution decode in linear light at the same size and crop, by SSIM
/// (scikit-image, `scripts/quality`), on landscape and portrait JPEG, WebP, PNG and HEIC photos.
@Suite(.serialized) struct FramingQualityTests {
  static let script = "Tests/ImagingTests/Fixtures/framing_quality.py"
  static let quality = 80

  /// The photos, made once from `testimages/photo-large.jpg`.
  static let photos = Result { () throws -> URL in
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-quality-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  static func makePhotos() async throws -> URL {
    let directory = try photos.get()
    if !FileManager.default.fileExists(
      atPath: directory.appendingPathComponent("thumbnailed.heic").path)
    {
      _ = try await PythonTools.run(script, ["inputs", directory.path], venv: "scripts/quality")
    }
    return directory
  }

  @Test(arguments: [
    ("landscape.jpg", "poster", 400), ("landscape.jpg", "square", 256),
    ("landscape.jpg", "square", 300), ("portrait.jpg", "poster", 200),
    ("portrait.jpg", "poster", 400), ("portrait.jpg", "square", 400),
    ("photo.webp", "poster", 400), ("photo.png", "poster", 300), ("photo.heic", "poster", 400),
    ("thumbnailed.heic", "poster", 400), ("thumbnailed.heic", "square", 200),
  ])
  func framedPicturesMatchTheLinearLightReference(name: String, shape: String, size: Int)
    async throws
  {
    let directory = try await Self.makePhotos()
    let path = directory.appendingPathComponent(name).path
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let options = ArtworkOptions(shape: Shape(rawValue: shape)!, size: size, crop: .centre)
    let output = PixelSize(width: options.outputSize.width, height: options.outputSize.height)
    let source = try VipsSource(copying: bytes)
    let format = try ImagePipeline.sniff(bytes)
    let info = try ImagePipeline.readHeader(
      source, format: format, byteCount: bytes.count, limits: .standard)
    let deadline = Deadline(secondsFromNow: 60)
    let framed = try ImagePipeline.framed(
      source, info: info, output: output, crop: .centre, deadline: deadline)
    let region = try #require(framed.region, "\(name) did not take the cropping-first path")
    #expect(framed.image.width == output.width && framed.image.height == output.height)
    let old = try ThumbnailFraming.frame(
      VipsSource(copying: bytes), info: info, output: output, crop: .centre, deadline: deadline)

    let scratch = directory.appendingPathComponent("\(name)-\(shape)-\(size)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let files = ["framed.png", "new.jpg", "old.jpg"].map { scratch.appendingPathComponent($0) }
    try Data(try framed.image.png(nil)).write(to: files[0])
    try Data(try framed.image.jpeg(quality: Self.quality)).write(to: files[1])
    try Data(try old.jpeg(quality: Self.quality)).write(to: files[2])
    let scores = try PythonTools.object(
      try await PythonTools.run(
        Self.script,
        ["score", path] + [region.x, region.y, region.width, region.height].map { "\($0)" }
          + files.map(\.path) + [String(Self.quality)],
        venv: "scripts/quality"))
    let framedScore = try #require(scores["framed"] as? Double)
    let new = try #require(scores["stored_new"] as? Double)
    let previous = try #require(scores["stored_old"] as? Double)
    #expect(framedScore >= 0.98, "\(name) \(shape) \(size): \(scores) (scale \(framed.eighths)/8)")
    #expect(new >= previous - 0.01, "\(name) \(shape) \(size): \(scores)")
  }

  /// A HEIC's embedded thumbnail is decoded instead of the picture only when it covers the
  /// output three times over (a 200 px square from 1000x872), not merely with the shrink margin
  /// (a 400x600 poster needs the 2000x1744 picture): encoders make thumbnails with cheap filters,
  /// and this one framed a 400x600 poster at SSIM 0.957, a 300x450 one at 0.969.
  @Test func anEmbeddedThumbnailIsUsedWhenLargeEnough() async throws {
    let directory = try await Self.makePhotos()
    for name in ["thumbnailed.heic", "photo.heic"] {
      let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
      let small = try ImagePipeline.decodeFloor(
        PinnedBytes(copying: bytes), options: ArtworkOptions(shape: .square, size: 200))
      let poster = try ImagePipeline.decodeFloor(
        PinnedBytes(copying: bytes), options: ArtworkOptions(shape: .poster, size: 400))
      let thumbnailed = name == "thumbnailed.heic"
      #expect(small.width == (thumbnailed ? 1000 : 2000), "\(name): \(small)")
      #expect(poster.width == 2000 && poster.height == 1744, "\(name): \(poster)")
    }
  }

  /// The attention decision made on a preview still frames the right size, and the region it
  /// chose is what the reference is made from.
  @Test func anAttentionCropMatchesItsReference() async throws {
    let directory = try await Self.makePhotos()
    let path = directory.appendingPathComponent("landscape.jpg").path
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let output = PixelSize(width: 400, height: 600)
    let source = try VipsSource(copying: bytes)
    let info = try ImagePipeline.readHeader(
      source, format: .jpeg, byteCount: bytes.count, limits: .standard)
    let framed = try ImagePipeline.framed(
      source, info: info, output: output, crop: .attention, deadline: Deadline(secondsFromNow: 60))
    let region = try #require(framed.region)
    #expect(framed.eighths == 4)
    let file = directory.appendingPathComponent("attention.png")
    try Data(try framed.image.png(nil)).write(to: file)
    let scores = try PythonTools.object(
      try await PythonTools.run(
        Self.script,
        ["score", path] + [region.x, region.y, region.width, region.height].map { "\($0)" }
          + [file.path, file.path, file.path, String(Self.quality)],
        venv: "scripts/quality"))
    #expect((scores["framed"] as? Double ?? 0) >= 0.98, "\(scores) \(region)")
  }
}
