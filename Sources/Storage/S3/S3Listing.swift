/// One page of a ListObjectsV2 answer: the keys with their Last-Modified times, and where the
/// next page starts.
struct S3Listing: Sendable, Equatable {
  struct Entry: Sendable, Equatable {
    var key: String
    /// Seconds since 1970; nil when the store sent no parseable date (never deleted then).
    var lastModified: Int64?
  }

  var entries: [Entry]
  /// The token for the next page, when the listing is truncated.
  var nextContinuationToken: String?

  /// Parses the XML body of a ListObjectsV2 answer. Malformed input gives fewer entries, never
  /// a trap.
  init(xml body: [UInt8]) {
    entries = S3XML.elements(of: "Contents", in: body).map { contents in
      let block = Array(contents)
      return Entry(
        key: S3XML.firstValue(of: "Key", in: block) ?? "",
        lastModified: S3XML.firstValue(of: "LastModified", in: block).flatMap(
          S3Date.parseISO8601))
    }.filter { !$0.key.isEmpty }
    let truncated = S3XML.firstValue(of: "IsTruncated", in: body) == "true"
    nextContinuationToken =
      truncated ? S3XML.firstValue(of: "NextContinuationToken", in: body) : nil
  }
}
