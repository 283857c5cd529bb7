import Storage

/// Where artwork is stored, from `ARTWORK_STORAGE`.
enum StorageLocation: Sendable, Hashable {
  /// A directory on the local filesystem (the default, `./data`).
  case fileSystem(directory: String)
  /// An S3-compatible bucket, from `s3://BUCKET/optional/prefix`. `prefix` has no leading or
  /// trailing slash and is empty when absent.
  case s3(bucket: String, prefix: String)

  /// Parses a directory path or an `s3://` location; nil when it is neither.
  init?(parsing text: String) {
    if text.hasPrefix("s3://") {
      let rest = text.dropFirst("s3://".count)
      let bucket = String(rest.prefix { $0 != "/" })
      let prefix = rest.dropFirst(bucket.count).split(separator: "/").joined(separator: "/")
      guard S3Configuration.isValidBucketName(bucket) else { return nil }
      self = .s3(bucket: bucket, prefix: prefix)
      return
    }
    // Any other scheme is a mistake (file://, http://), not a relative directory named "http:".
    guard !text.contains("://"), !text.utf8.contains(0) else { return nil }
    self = .fileSystem(directory: text)
  }
}
