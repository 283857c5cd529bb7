import ArtworkCore
import ThumbHashCodec

/// What `ArtworkProcessor.render` made: the object to store and everything the answer reports.
/// Public (fields internal) so that `artwork-bench` can drive the processor without HTTP.
public struct CreatedArtwork: Sendable {
  /// Where the rendered bytes are stored (their content hash).
  public var key: ArtworkKey
  /// The rendered image and its facts.
  public var rendered: RenderedArtwork
  /// The ThumbHash, base64.
  public var thumbHash: String
  /// The ThumbHash's average colour, `#rrggbb`.
  public var averageColor: String
}

/// What `ArtworkProcessor.thumbHash` computed, storing nothing.
public struct ComputedThumbHash: Sendable {
  /// Facts about the source image.
  public var source: SourceInfo
  /// The ThumbHash, base64.
  public var thumbHash: String
  /// The ThumbHash's average colour, `#rrggbb`.
  public var averageColor: String
  /// The aspect ratio the ThumbHash records.
  public var aspectRatio: Double
}

/// The work behind the endpoints and the CLI, independent of HTTP and storage: the cheap checks
/// on source bytes, then the pipeline and the ThumbHash on a bounded worker pool.
///
/// Public so that `artwork-bench` can measure the in-process ceiling of the upload path (the
/// same work as `POST /v1/artwork`, without HTTP and storage).
public final class ArtworkProcessor: Sendable {
  /// The threads image work runs on (for admission and metrics).
  public let pool: BlockingPool<Void>
  let maxSourceBytes: Int
  let limits: ImageLimits

  /// A processor running its image work on `pool`, refusing sources over `maxSourceBytes` bytes
  /// or `maxPixels` decoded pixels (the service passes `ServiceConfig`'s values).
  public init(pool: BlockingPool<Void>, maxSourceBytes: Int, maxPixels: Int) {
    self.pool = pool
    self.maxSourceBytes = maxSourceBytes
    self.limits = .pixels(maxPixels)
  }

  /// Refuses a source of `count` bytes over the limit, with the service's 413 text. The CLI
  /// calls it with a file's size before reading the file.
  public func checkSize(_ count: Int) throws(ArtworkError) {
    guard count <= maxSourceBytes else {
      throw ArtworkError(
        .payloadTooLarge,
        "The image is \(ByteCount.text(count)); the limit is \(ByteCount.text(maxSourceBytes))."
      )
    }
  }

  /// The checks every source passes before any decoding, in order: size, declared type, magic
  /// bytes against the allow-list, and agreement of the declared type with the bytes.
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
    let format = try ImagePipeline.sniff(bytes)
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
    return format
  }

  /// Renders and hashes `bytes` for `options`; the caller stores the result. The bytes go to
  /// libvips as they are, not copied.
  public func render(_ bytes: ArraySlice<UInt8>, declaredType: String?, options: ArtworkOptions)
    async throws(ArtworkError)
    -> CreatedArtwork
  {
    _ = try validate(bytes, declaredType: declaredType)
    let limits = self.limits
    return try await pool.run { () throws(ArtworkError) -> CreatedArtwork in
      var rendered = try ImagePipeline.render(bytes, options: options, limits: limits)
      let thumbnail = rendered.thumbnail
      let hash = try StageTimings.measure(&rendered.timings.thumbHash) {
        () throws(ArtworkError) in try Self.hash(thumbnail)
      }
      let key = ArtworkKey(id: ArtworkID(hex: SHA256.hex(rendered.bytes))!, format: rendered.format)
      return CreatedArtwork(
        key: key, rendered: rendered, thumbHash: hash.base64, averageColor: hash.averageColor)
    }
  }

  /// The ThumbHash of a source image, storing nothing.
  public func thumbHash(_ bytes: ArraySlice<UInt8>, declaredType: String?)
    async throws(ArtworkError) -> ComputedThumbHash
  {
    _ = try validate(bytes, declaredType: declaredType)
    let limits = self.limits
    return try await pool.run { () throws(ArtworkError) -> ComputedThumbHash in
      let (source, pixels) = try ImagePipeline.thumbnailPixels(bytes, limits: limits)
      let hash = try Self.hash(pixels)
      return ComputedThumbHash(
        source: source, thumbHash: hash.base64, averageColor: hash.averageColor,
        aspectRatio: hash.aspectRatio)
    }
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

  /// ThumbHash of RGBA pixels (each side at most 100), with its average colour as `#rrggbb`.
  public static func hash(_ pixels: ThumbnailPixels) throws(ArtworkError) -> (
    base64: String, averageColor: String, aspectRatio: Double
  ) {
    do {
      let hash = try ThumbHash.encode(width: pixels.width, height: pixels.height, rgba: pixels.rgba)
      let average = try ThumbHash.averageColor(hash)
      let ratio = try ThumbHash.approximateAspectRatio(hash)
      return (ThumbHashBase64.encode(hash), hexColor(average), ratio)
    } catch {
      throw ArtworkError(.internal, "ThumbHash failed", internalDetail: "\(error)")
    }
  }
}

/// `#rrggbb` for a ThumbHash average colour (channels 0...1).
func hexColor(_ color: ThumbHashColor) -> String {
  "#"
    + lowercaseHex(
      [color.red, color.green, color.blue].map { UInt8((min(max($0, 0), 1) * 255).rounded()) })
}
