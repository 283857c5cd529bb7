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
}
