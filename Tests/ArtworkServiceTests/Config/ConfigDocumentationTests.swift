import Foundation
import TestSupport
import Testing

@testable import ArtworkService

@Suite struct ConfigDocumentationTests {
  static let readme =
    (try? String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8))
    ?? ""

  @Test func tableHasOneRowPerKey() {
    let rows = ServiceConfig.markdownTable().split(separator: "\n").filter { $0.hasPrefix("|") }
    #expect(rows.count == ServiceConfig.documentation.count + 2)
    for (row, setting) in zip(rows.dropFirst(2), ServiceConfig.documentation) {
      #expect(row.hasPrefix("| `\(setting.key)` | "))
      // A "|" inside a cell would split the row.
      #expect(row.filter { $0 == "|" }.count == 4)
    }
  }

  /// Once the README carries the configuration table, it must be exactly the generated one
  /// (regenerate it with `ServiceConfig.markdownTable()`).
  @Test(.enabled(if: readme.contains("| Variable | Default | Meaning |")))
  func readmeTableMatchesTheCode() {
    #expect(Self.readme.contains(ServiceConfig.markdownTable()))
  }
}
