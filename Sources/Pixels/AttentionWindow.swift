import Glibc

/// Where a crop should sit to show what draws the eye: the window of the crop's size, slid along
/// the one axis it can move on, that holds the most interest, weighted toward its middle.
///
/// Interest, per preview pixel, adds up three things a viewer looks at:
/// - detail: the magnitude of the Laplacian of lightness (CIE L*), i.e. edges and texture;
/// - skin: colours near the direction of skin tones in RGB, at a middling lightness;
/// - colour: saturated, bright colour (chroma of the sRGB-encoded values).
/// Only interest above the picture's median counts (grain and texture everywhere draw no eye).
/// A flat picture, or one whose interest is spread evenly, keeps the centred window: the window
/// moves only for a clear gain.
public enum AttentionWindow {
  /// Weights of the three kinds of interest, each of which is in 0...1 per pixel.
  static let detailWeight: Float = 1
  static let skinWeight: Float = 1.5
  static let colourWeight: Float = 0.6
  /// How much more interest than the centred window a window must hold to be chosen.
  static let gainToMove: Float = 1.05

  /// The top-left corner, in preview pixels, of the `window`-sized window (at most the
  /// preview's size on each side) holding the most interest.
  public static func origin(in preview: LinearPreview, window: (width: Int, height: Int)) -> (
    x: Int, y: Int
  ) {
    let width = preview.width
    let height = preview.height
    let windowWidth = max(1, min(width, window.width))
    let windowHeight = max(1, min(height, window.height))
    let map = interest(preview)
    // Interest summed across the axis the window cannot move on.
    let alongX = width - windowWidth >= height - windowHeight
    let length = alongX ? width : height
    var line = [Float](repeating: 0, count: length)
    for y in 0..<height {
      for x in 0..<width { line[alongX ? x : y] += map[y * width + x] }
    }
    let span = alongX ? windowWidth : windowHeight
    let best = bestStart(line, span: span)
    let fixedCentre = alongX ? (height - windowHeight) / 2 : (width - windowWidth) / 2
    return alongX ? (best, fixedCentre) : (fixedCentre, best)
  }

  /// The start of the `span`-long run of `line` with the largest weighted sum; the centred run
  /// unless another beats it by `gainToMove`; the one nearest the centre among equals.
  static func bestStart(_ line: [Float], span: Int) -> Int {
    let positions = line.count - span + 1
    let centred = (line.count - span) / 2
    guard positions > 1 else { return 0 }
    // Interest near the middle of the window counts more than at its edges (1 down to 0.25),
    // so the window centres what it shows rather than just holding it.
    let weights = (0..<span).map { index -> Float in
      let t = span > 1 ? Float(index) / Float(span - 1) * 2 - 1 : 0
      return 1 - 0.75 * t * t
    }
    var sums = [Float](repeating: 0, count: positions)
    for start in 0..<positions {
      var total: Float = 0
      for index in 0..<span { total += line[start + index] * weights[index] }
      sums[start] = total
    }
    var best = centred
    for start in 0..<positions
    where sums[start] > sums[best]
      || (sums[start] == sums[best] && abs(start - centred) < abs(best - centred))
    {
      best = start
    }
    return sums[best] > sums[centred] * gainToMove ? best : centred
  }

  /// Interest per preview pixel (see the type's summary), row-major.
  static func interest(_ preview: LinearPreview) -> [Float] {
    let width = preview.width
    let height = preview.height
    let lightness = preview.pixels.map { pixel -> Float in
      let y = 0.2126 * pixel[0] + 0.7152 * pixel[1] + 0.0722 * pixel[2]
      return y > 216 / 24389 ? 116 * cbrtf(y) - 16 : y * 24389 / 27
    }
    var map = [Float](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        let index = y * width + x
        let centre = lightness[index]
        let up = lightness[max(0, y - 1) * width + x]
        let down = lightness[min(height - 1, y + 1) * width + x]
        let left = lightness[y * width + max(0, x - 1)]
        let right = lightness[y * width + min(width - 1, x + 1)]
        let detail = min(1, abs(4 * centre - up - down - left - right) / 40)
        let pixel = preview.pixels[index]
        // Gamma-encoded (approximately) for the colour tests, as people see colour.
        let r = powf(pixel[0], 1 / 2.2)
        let g = powf(pixel[1], 1 / 2.2)
        let b = powf(pixel[2], 1 / 2.2)
        let brightest = max(r, g, b)
        let chroma = brightest - min(r, g, b)
        let colour = max(0, min(1, (chroma - 0.25) / 0.5)) * brightest
        map[index] =
          detailWeight * detail + skinWeight * skin(r, g, b, lightness: centre)
          + colourWeight * colour
      }
    }
    // What every part of the picture has (texture, grain, a colour cast) draws no eye: only
    // interest above the picture's median counts.
    let median = map.sorted()[map.count / 2]
    return map.map { max(0, $0 - median) }
  }

  /// How close a colour is to skin tones: 1 on their direction in RGB, 0 from a distance of 0.25
  /// on, and 0 for very dark or very light pixels.
  static func skin(_ r: Float, _ g: Float, _ b: Float, lightness: Float) -> Float {
    guard lightness > 20, lightness < 95 else { return 0 }
    let norm = (r * r + g * g + b * b).squareRoot()
    guard norm > 0 else { return 0 }
    // The unit vector of (0.78, 0.57, 0.44).
    let (sr, sg, sb): (Float, Float, Float) = (0.7436, 0.5434, 0.4194)
    let dr = r / norm - sr
    let dg = g / norm - sg
    let db = b / norm - sb
    let distance = (dr * dr + dg * dg + db * db).squareRoot()
    return max(0, 1 - distance / 0.25)
  }
}
