import ArtworkCore
internal import CVips

/// A point on the monotonic clock after which work on one image stops.
struct Deadline: Sendable {
  /// Microseconds on libvips' (GLib's) monotonic clock.
  let microseconds: Int
  /// The budget it was made with, for error messages.
  let seconds: Double

  /// `seconds` from now (0 or less: already passed).
  init(secondsFromNow seconds: Double) {
    self.seconds = seconds
    microseconds = artwork_vips_now_us() + Int((max(0, seconds) * 1_000_000).rounded())
  }

  /// Whether the deadline is behind us.
  var hasPassed: Bool { artwork_vips_now_us() > microseconds }

  /// The public error for work that ran out of time.
  var error: ArtworkError { DecoderFailure.timeout.error(budget: seconds) }
}
