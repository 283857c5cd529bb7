import Synchronization

/// What libvips' JPEG reader said of the pictures it read: how many it found damaged.
///
/// libjpeg does not stop at corrupt data: it warns, fills what it could not decode with grey, and
/// goes on. libvips 8.14 fails on such warnings only with `fail_on=warning`, which also refuses
/// pictures that are whole (stray bytes between two header segments, common in the wild). So the
/// service reads what the reader says instead: when an image it read is released, it logs "read
/// gave N warnings", then its error buffer, whose JPEG line is the first warning. Two warnings or
/// more, or one that is not stray bytes between header segments, mean damaged rows.
///
/// NOTE: the journal is process-wide, like libvips' error buffer. In a worker process one job
/// runs at a time, so what a job sees is its own; the pipeline compares the count before and
/// after its work (`ImagePipeline.checkJPEGReads`).
enum JPEGReadJournal {
  private struct State {
    /// Reads judged damaged since the process started.
    var damaged = 0
    /// A read that gave exactly one warning, whose words come in the next message.
    var awaitingWarning = false
  }

  private static let state = Mutex(State())

  /// Reads judged damaged so far.
  static var damagedReads: Int { state.withLock { $0.damaged } }

  /// Takes one message libvips logged.
  static func record(_ message: String) {
    state.withLock { state in
      if let count = warningCount(message) {
        state.awaitingWarning = count == 1
        if count > 1 { state.damaged += 1 }
      } else if state.awaitingWarning {
        state.awaitingWarning = false
        if !isHarmless(lastJPEGLine(message)) { state.damaged += 1 }
      }
    }
  }

  /// N in "read gave N warnings" (libvips' JPEG reader, when it is released).
  static func warningCount(_ message: String) -> Int? {
    let prefix = "read gave "
    let suffix = " warnings"
    guard message.hasPrefix(prefix), message.hasSuffix(suffix) else { return nil }
    return Int(message.dropFirst(prefix.count).dropLast(suffix.count))
  }

  /// The last line libjpeg's messages left in libvips' error buffer (`VipsJpeg: ...`).
  static func lastJPEGLine(_ buffer: String) -> String? {
    buffer.split(whereSeparator: \.isNewline).last { $0.hasPrefix("VipsJpeg: ") }.map(String.init)
  }

  /// Whether a libjpeg warning leaves the picture whole: stray bytes before a header marker
  /// (`Corrupt JPEG data: 4 extraneous bytes before marker 0xda`), not before a restart marker
  /// (0xd0-0xd7) or the end of the image (0xd9), where they mean the scan's data is off. The
  /// same rule as the JPEG door's (`artwork_jpeg_warning_is_harmless`).
  static func isHarmless(_ line: String?) -> Bool {
    guard let line, let range = line.range(of: "extraneous bytes before marker 0x") else {
      return false
    }
    guard let marker = Int(line[range.upperBound...].prefix(2), radix: 16) else { return false }
    return !(marker == 0xD9 || (0xD0...0xD7).contains(marker))
  }
}
