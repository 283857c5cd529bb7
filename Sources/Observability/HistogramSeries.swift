/// One series of a histogram: how many observations fell at or below each bucket's bound,
/// how many there were, and their sum.
public struct HistogramSeries: Sendable {
  /// By bucket, in the order of the family's bounds: the observations at or below its bound.
  public var counts: [Int]
  /// Every observation.
  public var count = 0
  /// The observations' sum.
  public var sum = 0.0

  /// A series with no observations, for a family of `bucketCount` buckets.
  public init(bucketCount: Int) { counts = Array(repeating: 0, count: bucketCount) }

  /// Counts `value` in every bucket whose upper bound it does not exceed.
  ///
  /// Inlinable: it runs for every request the service answers (`RequestTally`, in the
  /// service's module), small enough that a call across the module boundary would be a
  /// noticeable part of it.
  @inlinable
  public mutating func record(_ value: Double, bounds: [Double]) {
    for (index, bound) in bounds.enumerated() where value <= bound {
      counts[index] += 1
    }
    count += 1
    sum += value
  }
}
