/// A variant of an accepted format that the service's decoders do not read, told from the
/// header bytes before any decoder sees them: a 415 that names it, where the decoder would only
/// have found the header "corrupt".
///
/// What libjpeg-turbo 2.1 (8 bits per sample only; no lossless or hierarchical process; no
/// upsampling by a fractional ratio) and bookworm's libheif 1.15 (HEVC and AV1 only; still
/// images only) refuse. Arithmetic-coded JPEG, 16-bit and interlaced PNG, animated WebP and GIF
/// (their first frame), 10- and 12-bit HEIC and AVIF are read, and pass.
public struct UnsupportedVariant: Sendable, Equatable {
  /// A stable name for logs and tests: `jpeg-12-bit`, `jpeg-lossless`, `heif-vvc1`...
  public var code: String
  /// The sentence for the client: what the image is, that it is not supported, and what to send.
  public var detail: String

  /// The unsupported variant `bytes` are, or nil: for everything else, the decoders judge.
  public static func find(_ bytes: UnsafeRawBufferPointer) -> UnsupportedVariant? {
    switch ImageFormat.sniff(Array(bytes.prefix(512))) {
    case .jpeg: JPEGFrameHeader.read(bytes).flatMap(jpeg)
    case .heic, .avif: HEIFStructure.read(bytes).flatMap(heif)
    default: nil
    }
  }

  /// The 415 that refuses this variant.
  public var error: ArtworkError {
    ArtworkError(.unsupportedMediaType, detail, internalDetail: "unsupported variant \(code)")
  }

  /// A JPEG's variant by its frame header: the coding process, the precision, the sampling.
  static func jpeg(_ frame: JPEGFrameHeader) -> UnsupportedVariant? {
    let sof = "SOF\(Int(frame.marker) - 0xC0)"
    let baseline = "send a baseline or progressive JPEG, or a PNG."
    switch frame.marker {
    case 0xC3, 0xCB:
      return UnsupportedVariant(
        code: "jpeg-lossless", detail: "Lossless JPEG (\(sof)) is not supported: \(baseline)")
    case 0xC5, 0xC6, 0xC7, 0xCD, 0xCE, 0xCF:
      return UnsupportedVariant(
        code: "jpeg-hierarchical",
        detail: "Hierarchical JPEG (\(sof)) is not supported: \(baseline)")
    default: break
    }
    if frame.precision == 12 || frame.precision == 16 {
      return UnsupportedVariant(
        code: "jpeg-\(frame.precision)-bit",
        detail:
          "\(frame.precision)-bit JPEG is not supported (the image has \(frame.precision) bits "
          + "per sample): send an 8-bit JPEG, or a PNG.")
    }
    return fractionalSampling(frame)
  }

  /// A JPEG whose components are sampled at ratios libjpeg does not upsample: one component's
  /// factor does not divide the largest (3x1 against 2x1). Factors outside 1-4 are damage, left
  /// to the decoder.
  static func fractionalSampling(_ frame: JPEGFrameHeader) -> UnsupportedVariant? {
    let factors = frame.components
    guard factors.count > 1,
      factors.allSatisfy({ (1...4).contains($0.horizontal) && (1...4).contains($0.vertical) })
    else { return nil }
    let widest = factors.map(\.horizontal).max() ?? 1
    let tallest = factors.map(\.vertical).max() ?? 1
    guard factors.contains(where: { widest % $0.horizontal != 0 || tallest % $0.vertical != 0 })
    else { return nil }
    let named = factors.map { "\($0.horizontal)x\($0.vertical)" }.joined(separator: ", ")
    return UnsupportedVariant(
      code: "jpeg-fractional-sampling",
      detail:
        "A JPEG whose components are sampled at fractional ratios (\(named)) is not supported: "
        + "send it saved again with 4:4:4, 4:2:2 or 4:2:0 sampling, or as a PNG.")
  }

  /// The codings of a HEIF primary image libheif 1.15 does not decode, by item type.
  static let heifCodings: [String: String] = [
    "vvc1": "coded with VVC (H.266)", "avc1": "coded with H.264 (AVC)",
    "jpeg": "coded with JPEG", "j2k1": "coded with JPEG 2000", "evc1": "coded with EVC",
    "unci": "stored uncompressed (ISO 23001-17)",
  ]

  /// A HEIF's variant by its boxes: a sequence with no still image, or a primary image (or the
  /// tiles it is made of) coded with a codec libheif lacks.
  static func heif(_ structure: HEIFStructure) -> UnsupportedVariant? {
    let send = "send a HEIC (HEVC) or AVIF still image, a JPEG or a PNG."
    if !structure.hasMeta && structure.hasMovie {
      return UnsupportedVariant(
        code: "heif-sequence",
        detail: "A HEIF image sequence without a still image is not supported: \(send)")
    }
    let types = (structure.primaryItemType.map { [$0] } ?? []) + structure.derivedFrom
    guard let type = types.first(where: { heifCodings[$0] != nil }),
      let coding = heifCodings[type]
    else { return nil }
    return UnsupportedVariant(
      code: "heif-\(type)",
      detail: "A HEIF image \(coding) is not supported: \(send)")
  }
}
