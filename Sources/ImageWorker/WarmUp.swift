import ArtworkCore
import Imaging
import WorkerProtocol

/// Every decoder and encoder a job can reach, run once before the worker locks itself down:
/// whatever a library loads or sets up on first use (a codec, a colour profile, glib's types)
/// is in place while the process may still open files, and no first job pays for it. The
/// samples are built in (`WarmUp/`, a few hundred bytes each).
enum WarmUp {
  /// One sample per decoder and path: libjpeg directly, libvips' JPEG loader with an ICC profile
  /// (lcms) and an EXIF orientation, CMYK, 16-bit PNG with alpha (the PNG encoder), libwebp
  /// directly and through libvips with alpha, GIF, HEIC (libde265) and AVIF (the AV1 decoder).
  static let samples: [[UInt8]] = [
    PackageResources.jpeg_plain_jpg, PackageResources.jpeg_icc_jpg,
    PackageResources.jpeg_cmyk_jpg, PackageResources.png_rgba16_png,
    PackageResources.webp_lossy_webp, PackageResources.webp_alpha_webp, PackageResources.gif_gif,
    PackageResources.heic_heic, PackageResources.avif_avif,
  ]

  /// Frames each sample once (a poster: the attention crop and the encoder), and takes the
  /// ThumbHash of the first.
  static func run() {
    let options = ArtworkOptions(shape: .poster, size: 64, crop: .attention)
    for sample in samples {
      _ = JobRunner.perform(
        .render(options), input: PinnedBytes(copying: sample), limits: .standard)
    }
    _ = JobRunner.perform(
      .thumbHash, input: PinnedBytes(copying: samples[0]), limits: .standard)
  }
}
