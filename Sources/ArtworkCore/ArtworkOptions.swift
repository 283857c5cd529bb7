/// The shape an activity shows its image in. `circle` is stored as a square: the phone draws the circle.
public enum Shape: String, Sendable, Hashable, CaseIterable {
  case square, poster, circle
}

/// How the frame is chosen when the source's aspect ratio differs from the shape's.
public enum CropMode: String, Sendable, Hashable, CaseIterable {
  case attention, centre
}

/// Validated processing options. The canonical form (`cacheKey`) identifies a rendering.
public struct ArtworkOptions: Sendable, Hashable {
  /// The output widths accepted, in pixels.
  public static let sizeRange = 64...1200
  /// The output width when none is asked for.
  public static let defaultSize = 400

  /// The shape the phone shows the image in.
  public var shape: Shape
  /// Output width in pixels, within `sizeRange`. A poster is 1.5 times as tall.
  public var size: Int
  /// How the frame is chosen when the aspect ratios differ.
  public var crop: CropMode

  /// Options; the defaults are a 400-pixel square with the attention crop.
  public init(
    shape: Shape = .square, size: Int = ArtworkOptions.defaultSize, crop: CropMode = .attention
  ) {
    self.shape = shape
    self.size = size
    self.crop = crop
  }

  /// Output width and height in pixels: poster is exactly 2:3 (an odd width is lowered by one
  /// pixel so that the ratio is exact), square and circle 1:1.
  package var outputSize: (width: Int, height: Int) {
    switch shape {
    case .poster: (size - size % 2, (size - size % 2) * 3 / 2)
    case .square, .circle: (size, size)
    }
  }

  /// Canonical text form, e.g. `shape=poster&size=400&crop=attention`.
  public var cacheKey: String { "shape=\(shape.rawValue)&size=\(size)&crop=\(crop.rawValue)" }
}
