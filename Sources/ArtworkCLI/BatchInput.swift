import ArtworkCore
import Foundation

/// One input of a batch command, as it is named in its JSON line: a file (given, or found in a
/// directory), a URL, or a name that could not be expanded (its failure already known).
struct BatchInput: Sendable, Equatable {
  /// The input as the JSON line names it (and as `--resume` recognises it).
  var text: String
  /// Why the input fails without being read (an unreadable directory), if it does.
  var failure: ArtworkError?

  /// Whether the input is fetched rather than read.
  var isURL: Bool {
    let lowered = text.prefix(8).lowercased()
    return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
  }

  /// The file name endings taken from a directory, in any case (named files are always taken).
  static let imageExtensions: Set<String> = [
    "jpg", "jpeg", "png", "webp", "gif", "heic", "heif", "avif",
  ]

  /// Every input that `arguments` name: URLs as given; directories walked recursively for
  /// image files (sorted, so that a second run names them the same way); `-` replaced by the
  /// lines of standard input; `--from` files' lines (read first) likewise.
  static func expand(_ arguments: [String], from lists: [String], command: String)
    throws(UsageError) -> [BatchInput]
  {
    var names: [String] = []
    for list in lists {
      do {
        names += lines(of: try LocalFile.read(list))
      } catch {
        throw UsageError(command, "--from: \(error.detail)")
      }
    }
    for argument in arguments {
      if argument == "-" {
        names += lines(of: [UInt8](FileHandle.standardInput.readDataToEndOfFile()))
      } else {
        names.append(argument)
      }
    }
    return names.flatMap(walk)
  }

  private static func lines(of bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// `name` itself, or the image files under it when it is a directory.
  private static func walk(_ name: String) -> [BatchInput] {
    var isDirectory: ObjCBool = false
    let probe = BatchInput(text: name)
    guard !probe.isURL, FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return [probe] }
    let entries: [String]
    do {
      entries = try FileManager.default.subpathsOfDirectory(atPath: name)
    } catch {
      let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
      let reason = code.map { LocalFile.reason(Int32($0)) } ?? "the directory cannot be listed"
      return [
        BatchInput(text: name, failure: ArtworkError(.badRequest, "cannot read \(name): \(reason)"))
      ]
    }
    let base = name.hasSuffix("/") ? String(name.dropLast()) : name
    return entries.sorted().compactMap { entry in
      guard let dot = entry.lastIndex(of: "."),
        imageExtensions.contains(entry[entry.index(after: dot)...].lowercased())
      else { return nil }
      let path = "\(base)/\(entry)"
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
        !isFolder.boolValue
      else { return nil }
      return BatchInput(text: path)
    }
  }
}
