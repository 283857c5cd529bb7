import Glibc

/// The weights of a one-dimensional Lanczos-3 resampling from `input` samples to `output`:
/// each output sample is a weighted sum of consecutive input samples.
///
/// Sample `i` sits at `i + 0.5`; output sample `o` is centred on `(o + 0.5) * input / output`,
/// so the first and last edges of both line up. When reducing, the kernel is widened by the
/// reduction factor (it then also filters out what the output cannot hold); when enlarging, it
/// keeps its width. Weights falling outside the input are dropped and the rest renormalised to a
/// sum of 1, so a flat picture stays flat up to its edges.
struct ResamplingWeights {
  /// Index of the first input sample of each output sample.
  let first: [Int]
  /// How many input samples each output sample sums (at most `stride`).
  let count: [Int]
  /// `stride` weights per output sample, the unused ones zero.
  let weights: [Float]
  /// The most input samples any output sample sums.
  let stride: Int

  /// The kernel's half-width, in input samples at a factor of 1.
  static let lobes = 3.0

  /// Weights from `input` to `output` samples (a count below 1 counts as 1).
  init(input: Int, output: Int) {
    let input = max(1, input)
    let output = max(1, output)
    let scale = Double(input) / Double(output)
    let widening = max(1, scale)
    let support = Self.lobes * widening
    var first = [Int](repeating: 0, count: output)
    var count = [Int](repeating: 0, count: output)
    var spans: [[Double]] = []
    spans.reserveCapacity(output)
    for index in 0..<output {
      let centre = (Double(index) + 0.5) * scale
      let low = max(0, Int((centre - support).rounded(.down)))
      let high = min(input, Int((centre + support).rounded(.up)))
      var span = (low..<high).map { Self.lanczos((Double($0) + 0.5 - centre) / widening) }
      var start = low
      // Zero weights at either end cost work and add nothing.
      while span.count > 1, span.first == 0 {
        span.removeFirst()
        start += 1
      }
      while span.count > 1, span.last == 0 { span.removeLast() }
      let total = span.reduce(0, +)
      spans.append(total == 0 ? [1] : span.map { $0 / total })
      first[index] = total == 0 ? min(input - 1, Int(centre)) : start
      count[index] = spans[index].count
    }
    let stride = count.max() ?? 1
    var weights = [Float](repeating: 0, count: stride * output)
    for (index, span) in spans.enumerated() {
      for (offset, weight) in span.enumerated() { weights[index * stride + offset] = Float(weight) }
    }
    self.first = first
    self.count = count
    self.weights = weights
    self.stride = stride
  }

  /// The Lanczos window of 3 lobes: sinc(x) sinc(x / 3) inside (-3, 3), 0 outside.
  ///
  /// One sine, not two: sin(3a) = 3 sin(a) - 4 sin(a)^3, with a = pi x / 3 (a framing's
  /// weights took 1% of an upload's time in `sin`).
  static func lanczos(_ x: Double) -> Double {
    if x == 0 { return 1 }
    guard abs(x) < lobes else { return 0 }
    let pix = Double.pi * x
    let third = sin(pix / lobes)
    let whole = third * (3 - 4 * third * third)
    return lobes * whole * third / (pix * pix)
  }
}
