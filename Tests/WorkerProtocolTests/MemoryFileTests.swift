import Testing

@testable import WorkerProtocol

@Suite struct MemoryFileTests {
  /// A job's bytes go over the last job's: the reader takes the count it is told, whatever the
  /// file held past it.
  @Test func aShorterInputIsReadByItsCountOverALongerOne() throws {
    let file = try MemoryFile(name: "test-input")
    try file.replace(with: ArraySlice(Array(repeating: 7, count: 10_000)))
    try file.replace(with: ArraySlice([1, 2, 3]))
    #expect(file.length == 10_000)
    #expect(file.read(count: 3) == [1, 2, 3])
    let mapped = try #require(file.mapped(count: 3))
    mapped.withUnsafeBytes { #expect(Array($0) == [1, 2, 3]) }
  }

  /// Pages are kept up to the bound, and given back past it.
  @Test func keepsItsPagesUpToTheBound() throws {
    let file = try MemoryFile(name: "test-input")
    try file.replace(with: ArraySlice(Array(repeating: 1, count: 4096)))
    file.keep(atMost: 8192)
    #expect(file.length == 4096)
    try file.replace(with: ArraySlice(Array(repeating: 2, count: 16384)))
    file.keep(atMost: 8192)
    #expect(file.length == 0)
    #expect(file.read(count: 1) == nil)
  }
}
