import ArtworkCore
import Foundation

/// The name of a deletion notice: `{milliseconds since 1970, 15 digits}-{id}.{ext}`, so that
/// names sort by when they were written and a poll lists only what is new.
struct DeletionNotice: Sendable, Equatable {
  var key: ArtworkKey
  var milliseconds: Int64

  init(key: ArtworkKey, milliseconds: Int64) {
    self.key = key
    self.milliseconds = milliseconds
  }

  init(key: ArtworkKey, at date: Date) {
    self.init(key: key, milliseconds: Int64(date.timeIntervalSince1970 * 1000))
  }

  /// Parses a notice's name; nil for anything else.
  init?(name: String) {
    let parts = name.split(separator: "-", maxSplits: 1)
    guard parts.count == 2, parts[0].count == 15, let milliseconds = Int64(parts[0]),
      let key = ArtworkKey(fileName: String(parts[1]))
    else { return nil }
    self.init(key: key, milliseconds: milliseconds)
  }

  var name: String { "\(Self.stamp(milliseconds))-\(key.fileName)" }

  /// The name before every notice written at `milliseconds` or later (`-` sorts before
  /// digits).
  static func cursor(_ milliseconds: Int64) -> String { "\(stamp(milliseconds))-" }

  private static func stamp(_ milliseconds: Int64) -> String {
    let digits = String(max(0, milliseconds))
    return String(repeating: "0", count: max(0, 15 - digits.count)) + digits
  }
}
