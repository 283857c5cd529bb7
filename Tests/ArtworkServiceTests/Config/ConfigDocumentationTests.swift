import Foundation
import TestSupport
import Testing

@testable import ArtworkService

@Suite struct ConfigDocumentationTests {
  @Test func tableHasOneRowPerKey() {
    let rows = ServiceConfig.markdownTable().split(separator: "\n").filter { $0.hasPrefix("|") }
    #expect(rows.count == ServiceConfig.documentation.count + 2)
    for (row, setting) in zip(rows.dropFirst(2), ServiceConfig.documentation) {
      #expect(row.hasPrefix("| `\(setting.key)` | "))
      // A "|" inside a cell would split the row.
      #expect(row.filter { $0 == "|" }.count == 4)
    }
  }

  /// `docs/configuration.md` carries exactly the generated table (regenerate it with
  /// `ServiceConfig.markdownTable()`).
  @Test func theConfigurationPageMatchesTheCode() throws {
    let page = try String(
      contentsOf: Repository.root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
    #expect(page.contains(ServiceConfig.markdownTable()))
  }
}
