/// Bounds on the work one image may cause and on what it may produce: checked in the service's
/// process before any decoder (`DecodeCost`), and sent with each job to the worker that decodes.
public struct ImageLimits: Sendable, Hashable {
  /// Largest source accepted, in pixels (width × height of the first frame, from the header).
  public package(set) var maxPixels: Int = 40_000_000
  /// Largest source side accepted, in pixels, whatever the area.
  package var maxSide: Int = 100_000
  /// Most scans of a JPEG decoded (libjpeg-turbo's advice for untrusted input is to bound
  /// them): each scan of a progressive JPEG is a pass over every block of the picture, and a
  /// real one has at most 18 (libjpeg's progression for CMYK; 10 for colour photographs).
  public var maxScans: Int = 100
  /// Most passes over `maxPixels` a JPEG's scans may make in all (scans × width × height):
  /// enough for every real progressive JPEG at the largest size accepted, and a bound of about
  /// 0.2 s of CPU time on the 24 scans of a 40-megapixel picture that hold nothing.
  public var maxScanPasses: Int = 24
  /// Largest encoded output, in bytes; the phone stops downloading past 2 MB.
  package var maxOutputBytes: Int = 2_000_000
  /// Wall-clock budget for one image, in seconds. libvips stops computing pixels once it is
  /// spent (checked as tiles are computed), and the encoder stops between attempts. Work the
  /// pipeline cannot interrupt (a decoder inside one call) is bounded by its worker's deadline:
  /// the service kills the worker (`WorkerPool`), and sets this a little shorter.
  public var maxSeconds: Double = 10
}

extension ImageLimits {
  /// The defaults.
  public static let standard = ImageLimits()

  /// The defaults with `maxPixels`, the one bound the service lets operators set
  /// (ARTWORK_MAX_PIXELS).
  public static func pixels(_ maxPixels: Int) -> ImageLimits {
    var limits = ImageLimits()
    limits.maxPixels = maxPixels
    return limits
  }
}
