import TestSupport
import Testing

@testable import ArtworkCore
@testable import Imaging

@Suite struct ImagePipelineFailureTests {
  @Test func pixelBombFailsAtTheHeaderStage() throws {
    let bytes = Fixtures.bytes("bomb.png")
    let expected =
      "The image is 50000x50000 pixels, which is over the 40000000-pixel limit (ARTWORK_MAX_PIXELS)."
    // The header stage alone (which decodes no pixel) refuses it...
    let header = PipelineFixture.error {
      let source = try VipsSource(copying: bytes)
      _ = try ImagePipeline.readHeader(
        source, format: .png, byteCount: bytes.count, limits: ImageLimits())
    }
    #expect(header?.kind == .unprocessableImage)
    #expect(header?.detail == expected)
    // ...and both entry points stop with that very error.
    let render = PipelineFixture.error {
      _ = try ImagePipeline.render(bytes, options: ArtworkOptions(), limits: ImageLimits())
    }
    #expect(render == header)
    let thumbnail = PipelineFixture.error {
      _ = try ImagePipeline.thumbnailPixels(bytes, limits: ImageLimits())
    }
    #expect(thumbnail == header)
  }

  @Test(arguments: ["truncated.jpg", "lying-header.png", "empty.jpg"])
  func brokenDataIsUnprocessable(name: String) {
    let bytes = Fixtures.bytes(name)
    for shape in [Shape.square, .poster] {
      let error = PipelineFixture.error {
        _ = try ImagePipeline.render(
          bytes, options: ArtworkOptions(shape: shape), limits: ImageLimits())
      }
      #expect(error?.kind == .unprocessableImage, "\(String(describing: error))")
    }
    let error = PipelineFixture.error {
      _ = try ImagePipeline.thumbnailPixels(bytes, limits: ImageLimits())
    }
    #expect(error?.kind == .unprocessableImage, "\(String(describing: error))")
  }

  @Test func truncationIsReportedWithTheLibraryMessage() {
    let error = PipelineFixture.error {
      _ = try ImagePipeline.render(
        Fixtures.bytes("truncated.jpg"), options: ArtworkOptions(), limits: ImageLimits())
    }
    #expect(
      error?.detail == "The JPEG image is truncated or corrupt: its pixels could not be decoded.")
    #expect(error?.internalDetail?.isEmpty == false)
  }

  @Test(arguments: ["page.html", "drawing.svg"])
  func nonImagesAreUnsupported(name: String) {
    let error = PipelineFixture.error {
      _ = try ImagePipeline.render(
        Fixtures.bytes(name), options: ArtworkOptions(), limits: ImageLimits())
    }
    #expect(error?.kind == .unsupportedMediaType)
    let thumbnail = PipelineFixture.error {
      _ = try ImagePipeline.thumbnailPixels(Fixtures.bytes(name), limits: ImageLimits())
    }
    #expect(thumbnail?.kind == .unsupportedMediaType)
  }

  @Test func aJPEGSignatureOnOtherDataIsUnprocessable() {
    let bytes: [UInt8] = [0xFF, 0xD8, 0xFF] + Array("<html>not a picture</html>".utf8)
    let error = PipelineFixture.error {
      _ = try ImagePipeline.render(bytes, options: ArtworkOptions(), limits: ImageLimits())
    }
    #expect(error?.kind == .unprocessableImage)
  }
}

@Suite struct ImagePipelineConcurrencyTests {
  /// libvips 8.14's error buffer is shared by all threads: images rendered side by side still
  /// each get their own outcome and public detail (from return codes, not from the buffer).
  @Test func concurrentRendersKeepTheirOwnErrors() async throws {
    Vips.initialize()
    let good = Fixtures.bytes("coffee.jpg")
    let bad = Fixtures.bytes("truncated.jpg")
    let outcomes = await withTaskGroup(of: (Bool, ArtworkError?).self) { group in
      for index in 0..<8 {
        let input = index % 2 == 0 ? good : bad
        group.addTask {
          do {
            let result = try ImagePipeline.render(
              input, options: ArtworkOptions(), limits: ImageLimits())
            #expect(result.width == 400)
            return (index % 2 == 0, nil)
          } catch {
            return (index % 2 == 0, error as? ArtworkError)
          }
        }
      }
      var all: [(Bool, ArtworkError?)] = []
      for await outcome in group { all.append(outcome) }
      return all
    }
    #expect(outcomes.count == 8)
    for (isGood, error) in outcomes {
      if isGood {
        #expect(error == nil)
      } else {
        #expect(error?.kind == .unprocessableImage)
        #expect(error?.detail.hasPrefix("The JPEG image is truncated or corrupt") == true)
      }
    }
  }
}

@Suite struct ImagePipelineDeadlineTests {
  static func source(_ name: String) throws -> (VipsSource, SourceInfo) {
    Vips.initialize()
    let bytes = Fixtures.bytes(name)
    let source = try VipsSource(copying: bytes)
    let info = try ImagePipeline.readHeader(
      source, format: ImageFormat.sniff(bytes)!, byteCount: bytes.count, limits: ImageLimits())
    return (source, info)
  }

  /// A spent deadline kills libvips' computation of the framed pixels themselves (not only the
  /// checks between stages). NOTE: libvips checks the kill flag as it reports progress, which a
  /// small source (a 451x300 PNG) may finish before doing: only large work is asserted here.
  @Test(arguments: ["photo-large.jpg", "photo.heic"])
  func frameStopsAtTheDeadline(name: String) throws {
    let (source, info) = try Self.source(name)
    let spent = Deadline(secondsFromNow: 0)
    // Both crops: a JPEG's centre crop streams from libjpeg, checking between strips.
    for crop in [CropMode.attention, .centre] {
      let error = PipelineFixture.error {
        _ = try ImagePipeline.frame(
          source, info: info, output: PixelSize(width: 1200, height: 1800), crop: crop,
          deadline: spent)
      }
      #expect(error == spent.error, "\(crop)")
      #expect(error?.kind == .decoderFailure)
      #expect(error?.members == [.string("reason", "timeout")])
    }
  }

  @Test func thumbnailStopsAtTheDeadline() throws {
    let (source, info) = try Self.source("photo-large.jpg")
    let spent = Deadline(secondsFromNow: 0)
    let error = PipelineFixture.error {
      _ = try ImagePipeline.thumbnail(source, info: info, deadline: spent)
    }
    #expect(error == spent.error)
  }

  @Test func renderHonoursTheTimeLimit() {
    let error = PipelineFixture.error {
      _ = try ImagePipeline.render(
        Fixtures.bytes("coffee.jpg"), options: ArtworkOptions(),
        limits: ImageLimits(maxSeconds: 0))
    }
    #expect(error?.kind == .decoderFailure)
    #expect(error?.members == [.string("reason", "timeout")])
    #expect(
      error?.detail
        == "The image took longer than 0 seconds to decode and frame; send a smaller or simpler image."
    )
  }

  @Test func aGenerousDeadlineChangesNothing() throws {
    let (source, info) = try Self.source("coffee.jpg")
    let image = try ImagePipeline.frame(
      source, info: info, output: PixelSize(width: 400, height: 400), crop: .centre,
      deadline: Deadline(secondsFromNow: 600))
    #expect(image.width == 400 && image.height == 400)
  }
}
