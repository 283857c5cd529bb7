/// A content-addressed artwork id: the lowercase hex SHA-256 of the stored bytes.
public struct ArtworkID: Sendable, Hashable, CustomStringConvertible {
  /// The 64 lowercase hex digits.
  public let hex: String

  /// Accepts exactly 64 lowercase hex digits; anything else is not an id (and never reaches storage).
  public init?(hex: String) {
    guard hex.utf8.count == 64,
      hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else { return nil }
    self.hex = hex
  }

  public var description: String { hex }
}
