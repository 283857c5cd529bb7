import Foundation

/// A value kept as a JSON record in storage (a URL's result, an image's facts): written with
/// sorted keys, and read back only when it is of the current version (an old format is a miss).
protocol StoredRecord: Codable {
  static var currentVersion: Int { get }
  var version: Int { get }
}

extension StoredRecord {
  var json: [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // NOTE: encoding plain Codable structs of strings and numbers cannot fail.
    return (try? [UInt8](encoder.encode(self))) ?? []
  }

  /// Nil for bytes that are not a record of the current version.
  init?(json: [UInt8]) {
    guard let record = try? JSONDecoder().decode(Self.self, from: Data(json)),
      record.version == Self.currentVersion
    else { return nil }
    self = record
  }
}
