import ArtworkCore

/// Bearer-token check for the POST endpoints. With no tokens configured, everything passes.
struct Authenticator: Sendable {
  private let tokens: [[UInt8]]

  init(tokens: [String]) {
    self.tokens = tokens.map { Array($0.utf8) }
  }

  var isEnabled: Bool { !tokens.isEmpty }

  /// Nil when `authorization` (the header's value) carries a configured token, else the error.
  /// Throws `.unauthorized` unless `authorization` carries one of the tokens (or none is set).
  func authorize(_ authorization: String?) throws(ArtworkError) {
    if let error = check(authorization: authorization) { throw error }
  }

  func check(authorization: String?) -> ArtworkError? {
    guard isEnabled else { return nil }
    guard let authorization else {
      return ArtworkError(.unauthorized, "This endpoint needs `Authorization: Bearer <token>`.")
    }
    let prefix = "bearer "
    guard authorization.count > prefix.count, authorization.lowercased().hasPrefix(prefix) else {
      return ArtworkError(.unauthorized, "The Authorization header must be `Bearer <token>`.")
    }
    let presented = Array(authorization.utf8.dropFirst(prefix.utf8.count))
    // Compare against every token, always in full, so timing reveals neither which token nor
    // how much of one matched.
    var matched = false
    for token in tokens where Authenticator.constantTimeEquals(token, presented) { matched = true }
    return matched ? nil : ArtworkError(.unauthorized, "The bearer token is not valid.")
  }

  /// Equality whose running time depends only on the lengths, not on where bytes differ.
  static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
    if a.count != b.count { difference |= 1 }
    let n = max(a.count, b.count)
    for i in 0..<n {
      let x = i < a.count ? a[i] : 0
      let y = i < b.count ? b[i] : 0
      difference |= x ^ y
    }
    return difference == 0
  }
}
