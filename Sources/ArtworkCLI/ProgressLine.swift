import ArtworkCore
import Foundation

/// The progress of a batch: on a terminal a line redrawn in place (`\r` and an erase), into a
/// file or a pipe plain lines (at most one a second, no escape codes), and the one-line summary
/// written at the end.
struct ProgressLine {
  /// Inputs to run in this process (skipped ones not counted).
  let total: Int
  /// Whether the line is drawn at all (`--progress`).
  let enabled: Bool
  /// Whether standard error is a terminal, where the line is redrawn in place.
  let inPlace: Bool
  private(set) var done = 0
  private(set) var failed = 0
  private let started: ContinuousClock.Instant
  private var drawn: ContinuousClock.Instant?

  /// The time a rate needs before it means anything: the first images' times are mostly
  /// start-up (workers warming, the first fetch).
  static let settling: Duration = .seconds(1)

  init(
    total: Int, enabled: Bool, inPlace: Bool, started: ContinuousClock.Instant = .now
  ) {
    self.total = total
    self.enabled = enabled
    self.inPlace = inPlace
    self.started = started
  }

  /// Counts one finished input and draws the line: redrawn at most ten times a second on a
  /// terminal, written at most once a second elsewhere, and always for the last input.
  mutating func record(ok: Bool, now: ContinuousClock.Instant = .now) {
    done += 1
    if !ok { failed += 1 }
    guard enabled else { return }
    let interval: Duration = inPlace ? .milliseconds(100) : .seconds(1)
    if let drawn, now - drawn < interval, done < total { return }
    drawn = now
    Console.printRaw(inPlace ? "\r\u{1B}[K" + text(now: now) : text(now: now) + "\n")
  }

  /// `37/50 done, 1 failed, 8.4 images/s, 2 s left`; the rate and the time left only once the
  /// run has gone on for `settling`.
  func text(now: ContinuousClock.Instant = .now) -> String {
    var text = "\(done)/\(total) done, \(failed) failed"
    guard now - started >= Self.settling else { return text }
    let rate = self.rate(now: now)
    text += ", \(format(rate)) images/s"
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
    return (drawn == nil || !inPlace ? "" : "\r\u{1B}[K") + text
  }

  private func rate(now: ContinuousClock.Instant) -> Double {
    let seconds = (now - started).seconds
    return seconds > 0 ? Double(done) / seconds : 0
  }

  private func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
