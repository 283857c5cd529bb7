import Foundation

/// The one way tests read the committed test images in `testimages/` (see its README.md).
public enum Fixtures {
  /// The folder holding the test images.
  public static let directory: URL = Repository.root.appendingPathComponent("testimages")

  /// The bytes of `testimages/<name>`; a missing fixture is a broken checkout, so it traps.
  public static func bytes(_ name: String) -> [UInt8] {
    let url = directory.appendingPathComponent(name)
    guard let data = FileManager.default.contents(atPath: url.path) else {
      fatalError("missing test image \(url.path)")
    }
    return [UInt8](data)
  }

  /// The path of `testimages/<name>`, for a command line.
  public static func path(_ name: String) -> String {
    directory.appendingPathComponent(name).path
  }

  /// A new empty directory under the system's temporary one; the caller removes it.
  public static func temporaryDirectory(_ prefix: String = "artwork-test") -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
