import ArtworkCore
import WorkerProtocol

/// The work behind the endpoints and the CLI, independent of HTTP and storage: the cheap checks
/// on source bytes here, in the service's process, then the image work in a worker process
/// (`WorkerPool`): no decoder ever runs where a crash of it could take the service down.
public final class ArtworkProcessor: Sendable {
  /// The worker processes image work runs in (for admission and metrics).
  public let workers: WorkerPool
  let maxSourceBytes: Int
  let limits: ImageLimits

  /// A processor whose image work runs in `workers`, refusing sources over `maxSourceBytes`
  /// bytes or `maxPixels` decoded pixels (the service passes `ServiceConfig`'s values).
  public init(workers: WorkerPool, maxSourceBytes: Int, maxPixels: Int) {
    self.workers = workers
    self.maxSourceBytes = maxSourceBytes
    self.limits = .pixels(maxPixels)
  }

  /// Refuses a source of `count` bytes over the limit, with the service's 413 text. The CLI
  /// calls it with a file's size before reading the file.
  public func checkSize(_ count: Int) throws(ArtworkError) {
    guard count <= maxSourceBytes else {
      throw ArtworkError(
        .payloadTooLarge,
        "The image is \(ByteCount.text(count)); the limit is \(ByteCount.text(maxSourceBytes)) (ARTWORK_MAX_SOURCE_BYTES)."
      )
    }
  }

  /// The checks every source passes before any decoding, in order: size, declared type, magic
  /// bytes against the allow-list, agreement of the declared type with the bytes, a variant
  /// the decoders do not read (`UnsupportedVariant`: a 415 that names it), and a JPEG's scans
  /// against the decode budget (`DecodeCost`): a file that would hold a worker for seconds is
  /// refused before a worker is used.
  func validate(_ bytes: ArraySlice<UInt8>, declaredType: String?) throws(ArtworkError)
    -> ImageFormat
  {
    try checkSize(bytes.count)
    if let declaredType, !declaredType.hasPrefix("image/"),
      declaredType != "application/octet-stream"
    {
      throw ArtworkError(
        .unsupportedMediaType,
        "The image was declared as \(ClientText.quoted(declaredType)); send an image/* type.")
    }
    let format = try ImageFormat.sniffed(prefix: Array(bytes.prefix(512)), count: bytes.count)
    if let declaredType, declaredType.hasPrefix("image/") {
      guard let declared = ImageFormat.forMimeType(declaredType) else {
        throw ArtworkError(
          .unsupportedMediaType,
          "\(ClientText.quoted(declaredType)) is not an accepted format; send JPEG, PNG, WebP, GIF, HEIC or AVIF."
        )
      }
      guard declared.isCompatible(with: format) else {
        throw ArtworkError(
          .unsupportedMediaType,
          "The image was declared as \(ClientText.quoted(declaredType)) but its bytes are \(format.mimeType)."
        )
      }
    }
    if let variant = bytes.withUnsafeBytes({ UnsupportedVariant.find($0) }) {
      throw variant.error
    }
    if let problem = bytes.withUnsafeBytes({ DecodeCost.problem($0, limits: limits) }) {
      throw ArtworkError(.unprocessableImage, problem)
    }
    return format
  }

  /// Renders and hashes `bytes` for `options`; the caller stores the result.
  /// `retryingRemembered` (the caller's `Cache-Control: no-cache`) tries bytes again that made
  /// a worker fail before, instead of refusing them from memory (`WorkerPool.run`).
  public func render(
    _ bytes: ArraySlice<UInt8>, declaredType: String?, options: ArtworkOptions,
    retryingRemembered: Bool = false
  ) async throws(ArtworkError) -> CreatedArtwork {
    _ = try validate(bytes, declaredType: declaredType)
    let (answer, output) = try await workers.run(
      .render(options), on: bytes, limits: limits, retryingRemembered: retryingRemembered)
    switch answer {
    case .rendered(let facts): return try CreatedArtwork(facts, bytes: output, shape: options.shape)
    default: throw Self.unexpected(answer)
    }
  }

  /// The ThumbHash of a source image, storing nothing (`retryingRemembered` as `render`'s).
  public func thumbHash(
    _ bytes: ArraySlice<UInt8>, declaredType: String?, retryingRemembered: Bool = false
  ) async throws(ArtworkError) -> ComputedThumbHash {
    _ = try validate(bytes, declaredType: declaredType)
    let (answer, _) = try await workers.run(
      .thumbHash, on: bytes, limits: limits, retryingRemembered: retryingRemembered)
    switch answer {
    case .thumbHashed(let source, let hash):
      let summary = try ThumbHashSummary(hash)
      return ComputedThumbHash(
        source: source, thumbHash: summary.base64, averageColor: summary.averageColor,
        aspectRatio: summary.aspectRatio)
    default: throw Self.unexpected(answer)
    }
  }

  /// The format and upright size of `bytes` from the header alone, whatever their size; nil
  /// when they are not an image a worker can read (`retryingRemembered` as `render`'s).
  public func inspect(_ bytes: [UInt8], retryingRemembered: Bool = false) async -> SourceInfo? {
    guard
      let (answer, _) = try? await workers.run(
        .inspect, on: bytes[...], limits: limits, retryingRemembered: retryingRemembered),
      case .inspected(let info) = answer
    else { return nil }
    return info
  }

  /// What a worker finds when it tries what containment forbids (`ContainmentProbe`).
  public func probeContainment(_ targets: ContainmentProbe.Targets) async throws(ArtworkError)
    -> ContainmentProbe.Report
  {
    let (answer, _) = try await workers.run(.probe(targets), on: [], limits: limits)
    guard case .probed(let report) = answer else { throw Self.unexpected(answer) }
    return report
  }

  /// `render` of a whole array.
  public func render(_ bytes: [UInt8], declaredType: String?, options: ArtworkOptions)
    async throws(ArtworkError) -> CreatedArtwork
  {
    try await render(bytes[...], declaredType: declaredType, options: options)
  }

  /// `thumbHash` of a whole array.
  public func thumbHash(_ bytes: [UInt8], declaredType: String?) async throws(ArtworkError)
    -> ComputedThumbHash
  {
    try await thumbHash(bytes[...], declaredType: declaredType)
  }

  private static func unexpected(_ answer: WorkerAnswer) -> ArtworkError {
    ArtworkError(
      .internal, "The image could not be processed.",
      internalDetail: "a worker answered \(answer) to another job")
  }
}
