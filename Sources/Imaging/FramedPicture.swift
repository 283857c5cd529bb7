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
  /// The shrink-on-load factor used (1: full size).
  var shrink: Int = 1
}
