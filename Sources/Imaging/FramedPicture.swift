/// A framed picture (exactly the output size, sRGB, in memory) and where it came from.
struct FramedPicture {
  /// The region of the upright source a framed picture shows, in source pixels.
  struct Region: Equatable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
  }

  /// The picture.
  let image: VipsImage
  /// The region it shows, when the path that framed it knows it (nil through libvips' thumbnail).
  let region: Region?
  /// The scale the source was decoded at, in eighths (8: full size; 4: shrink-on-load 1/2).
  var eighths: Int = 8
}

extension FramedPicture.Region {
  /// The region of a `source`-sized picture that the rectangle of `size` at `origin` of its
  /// scaled decode (`picture`-sized) shows.
  init(_ origin: (x: Int, y: Int), _ size: PixelSize, of picture: PixelSize, in source: PixelSize) {
    let x = Double(source.width) / Double(picture.width)
    let y = Double(source.height) / Double(picture.height)
    self.init(
      x: Double(origin.x) * x, y: Double(origin.y) * y, width: Double(size.width) * x,
      height: Double(size.height) * y)
  }
}
