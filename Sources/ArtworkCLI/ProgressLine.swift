import ArtworkCore
import Foundation

/// The progress of a batch: a line redrawn in place on a terminal (`\r`), and the one-line
/// summary written at the end.
struct ProgressLine {
  /// Inputs to run in this process (skipped ones not counted).
  let total: Int
  /// Whether the line is drawn at all (`--progress`).
  let enabled: Bool
  private(set) var done = 0
  private(set) var failed = 0
  private let started = ContinuousClock.now
  private var drawn: ContinuousClock.Instant?

  init(total: Int, enabled: Bool) {
    self.total = total
    self.enabled = enabled
  }

  /// Counts one finished input and redraws the line (at most ten times a second, and for the
  /// last input).
  mutating func record(ok: Bool) {
    done += 1
    if !ok { failed += 1 }
    guard enabled else { return }
    let now = ContinuousClock.now
    if let drawn, now - drawn < .milliseconds(100), done < total { return }
    drawn = now
    ArtworkCommand.printRaw("\r\u{1B}[K" + text(now: now))
  }

  /// `37/50 done, 1 failed, 8.4 images/s, 2 s left`
  func text(now: ContinuousClock.Instant = .now) -> String {
    let rate = self.rate(now: now)
    var text = "\(done)/\(total) done, \(failed) failed, \(format(rate)) images/s"
    if rate > 0 && done < total {
      text += ", \(Int((Double(total - done) / rate).rounded(.up))) s left"
    }
    return text
  }

  /// The last line: what was done, how fast, and what was left when interrupted.
  func summary(command: String, skipped: Int, interrupted: Bool) -> String {
    let now = ContinuousClock.now
    let elapsed = (now - started).seconds
    var text =
      "artwork \(command): \(done) of \(total) done, \(failed) failed"
      + (skipped > 0 ? ", \(skipped) skipped (already done)" : "")
      + " in \(format(elapsed)) s (\(format(rate(now: now))) images/s)"
    if interrupted { text += "; interrupted, \(total - done) not started (--resume continues)" }
    return (drawn == nil ? "" : "\r\u{1B}[K") + text
  }

  private func rate(now: ContinuousClock.Instant) -> Double {
    let seconds = (now - started).seconds
    return seconds > 0 ? Double(done) / seconds : 0
  }

  private func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
