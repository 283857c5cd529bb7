import ArtworkCore

extension ArtworkOptions {
  /// Validates option fields (`shape`, `size`, `crop`), each with a specific error.
  public init(fields: [String: String]) throws(ArtworkError) {
    self.init()
    if let text = fields["shape"] {
      guard let shape = Shape(rawValue: text.lowercased()) else {
        throw ArtworkError(
          .badRequest,
          "shape=\(ClientText.quoted(text)) is not a shape; use square (default), poster or circle."
        )
      }
      self.shape = shape
    }
    if let text = fields["size"] {
      // Digits only (`Int("+400")` would take a sign no option is written with), read as
      // digits: leading zeros aside, more than four of them are past any size.
      let digits = text.utf8.drop { $0 == UInt8(ascii: "0") }
      guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), digits.count <= 4,
        case let size = digits.reduce(0, { $0 * 10 + Int($1) - 48 }),
        ArtworkOptions.sizeRange.contains(size)
      else {
        throw ArtworkError(
          .badRequest,
          "size=\(ClientText.quoted(text)) is not accepted; use a width in pixels from \(ArtworkOptions.sizeRange.lowerBound) to \(ArtworkOptions.sizeRange.upperBound) (default \(ArtworkOptions.defaultSize))."
        )
      }
      self.size = size
    }
    if let text = fields["crop"] {
      switch text.lowercased() {
      case "attention": crop = .attention
      case "centre", "center": crop = .centre
      default:
        throw ArtworkError(
          .badRequest,
          "crop=\(ClientText.quoted(text)) is not a crop mode; use attention (default) or centre.")
      }
    }
  }
}
