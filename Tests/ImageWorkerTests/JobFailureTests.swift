import TestSupport
import Testing

@testable import ArtworkCore
@testable import ImageWorker
@testable import WorkerProtocol

/// The code a worker reports for a failure of image work, judged in the worker's own process,
/// and what the service answers for each code.
@Suite struct JobFailureTests {
  static let cases: [(ArtworkError, DecoderFailure)] = [
    (DecoderFailure.timeout.error(budget: 4.5), .timeout),
    (ArtworkError(.unsupportedMediaType, "Not an image."), .unsupported),
    (
      ArtworkError(
        .unprocessableImage, "The JPEG image is truncated or corrupt.",
        internalDetail: "libjpeg: Corrupt JPEG data: premature end of data segment"),
      .unprocessable
    ),
    (ArtworkError(.unprocessableImage, "The image is 50000x50000 pixels."), .unprocessable),
    (
      ArtworkError(
        .unprocessableImage, "The PNG image is truncated or corrupt.",
        internalDetail: "vips_image_copy_memory: vips_tracked: out of memory --- size == 114MB"),
      .memory
    ),
    (
      ArtworkError(
        .internal, "The image could not be framed.",
        internalDetail: "vips_region_new: out of memory --- size == 48MB"),
      .memory
    ),
    (ArtworkError(.internal, "The image could not be encoded."), .internal),
    // Only libvips' words for a refused allocation, on the kinds it reports them with.
    (
      ArtworkError(.unsupportedMediaType, "Not an image.", internalDetail: "out of memory"),
      .unsupported
    ),
    (ArtworkError(.badRequest, "?"), .internal),
  ]

  @Test func theWorkerJudgesTheCodeOnce() {
    for (error, code) in Self.cases {
      let failure = JobFailure(error)
      #expect(failure.code == code, "\(error)")
      #expect(failure.detail == error.detail && failure.internalDetail == error.internalDetail)
    }
  }

  /// Each code is answered with one kind of problem; the decoder failures name their reason.
  @Test func eachCodeHasOneKindOfProblem() {
    let kinds: [DecoderFailure: ArtworkError.Kind] = [
      .crash: .decoderFailure, .timeout: .decoderFailure, .memory: .decoderFailure,
      .unprocessable: .unprocessableImage, .unsupported: .unsupportedMediaType,
      .internal: .internal,
    ]
    for code in DecoderFailure.allCases {
      #expect(code.kind == kinds[code])
      let error = code.error(budget: 1)
      #expect(error.kind == code.kind)
      #expect(error.members == (code.isDecoderFailure ? [.string("reason", code.rawValue)] : []))
    }
  }

  /// Jobs run in this process report the codes the service will decide by.
  @Test func jobsReportTheirCodes() {
    let render = WorkerJob.render(ArtworkOptions(shape: .poster, size: 64, crop: .centre))
    let cases: [([UInt8], DecoderFailure)] = [
      (Array("not an image at all".utf8), .unsupported),
      (Array(Fixtures.bytes("coffee.jpg").prefix(2000)), .unprocessable),
    ]
    for (bytes, code) in cases {
      let (answer, output) = JobRunner.perform(
        render, input: PinnedBytes(copying: bytes), limits: .standard)
      guard case .failed(let failure) = answer else {
        Issue.record("\(answer)")
        continue
      }
      #expect(failure.code == code, "\(failure)")
      #expect(output.isEmpty)
    }
  }
}
