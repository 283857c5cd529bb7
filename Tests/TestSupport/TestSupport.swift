import Foundation

/// Where the repository's files are, for tests that read fixtures (`testimages/`, vectors).
public enum Repository {
  /// The package root, found from this source file's location.
  public static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
