import ArtworkCore
import Foundation

/// The inputs a JSON Lines file records as done: for `--resume`, which skips them.
enum ResumeLog {
  /// Inputs with an `"ok": true` line in `path`; none when the file does not exist yet. Lines
  /// that are not JSON objects (the torn last line of a killed run) are ignored.
  static func succeeded(in path: String) throws(ArtworkError) -> Set<String> {
    let bytes: [UInt8]
    do {
      bytes = try LocalFile.read(path)
    } catch {
      if error.kind == .notFound { return [] }
      throw error
    }
    var done: Set<String> = []
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
        object["ok"] as? Bool == true, let input = object["input"] as? String
      else { continue }
      done.insert(input)
    }
    return done
  }
}
