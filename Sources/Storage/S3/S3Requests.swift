import ArtworkCore

/// Builds the S3 requests `S3Storage` sends: URLs (path-style or virtual-hosted), canonical
/// paths and queries, and the headers libcurl then signs with SigV4. Pure: no I/O.
///
/// NOTE: libcurl 7.88's SigV4 signs exactly the headers it is given and adds no
/// `x-amz-content-sha256`, so every request carries one here: the body's SHA-256, or the
/// empty-body hash for bodyless requests.
struct S3Requests: Sendable {
  let configuration: S3Configuration
  /// `{scheme}://{host}{base}/{bucket}` or `{scheme}://{bucket}.{host}{base}`, no trailing slash:
  /// worked out once, as every request's URL starts with it.
  private let bucketBase: String

  /// The SHA-256 of an empty body, the payload hash of GET, HEAD and DELETE.
  static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

  init(configuration: S3Configuration) {
    self.configuration = configuration
    self.bucketBase = Self.bucketBase(configuration)
  }

  // MARK: - Keys

  /// `{prefix}/objects/{id}.{ext}`.
  func objectKey(_ key: ArtworkKey) -> String { prefixed("objects/\(key.fileName)") }

  /// `{prefix}/records/{sha256 of name}`: hashing keeps any name (a URL) a short, safe key.
  func recordKey(_ name: String) -> String {
    prefixed("records/\(SHA256.hex(Array(name.utf8)))")
  }

  /// `{prefix}/objects/`: what the sweep lists.
  var objectsPrefix: String { prefixed("objects/") }
  /// `{prefix}/records/`.
  var recordsPrefix: String { prefixed("records/") }
  /// `{prefix}/deletions/`: the deletion notices (see `ArtworkStorage`).
  var deletionsPrefix: String { prefixed("deletions/") }
  /// `{prefix}/deletions/{name}`.
  func deletionKey(_ name: String) -> String { prefixed("deletions/\(name)") }
  /// A probe key the readiness check writes and deletes.
  func probeKey(_ token: String) -> String { prefixed("readiness/\(token)") }

  private func prefixed(_ path: String) -> String {
    configuration.prefix.isEmpty ? path : "\(configuration.prefix)/\(path)"
  }

  // MARK: - URLs

  /// The URL of object `key` (already unencoded; encoded here).
  func objectURL(_ key: String) -> String {
    bucketBase + "/" + S3Encoding.encodeKey(key)
  }

  /// The bucket's URL with a canonical query (`/bucket?…` or `https://bucket.host/?…`).
  func bucketURL(query: [(name: String, value: String)] = []) -> String {
    var url = bucketBase
    // Virtual-hosted: the bucket is the host, so its listing is the root path `/`.
    if configuration.virtualHosted { url += "/" }
    if !query.isEmpty { url += "?" + S3Encoding.canonicalQuery(query) }
    return url
  }

  private static func bucketBase(_ configuration: S3Configuration) -> String {
    guard let parts = configuration.endpointParts else {
      // An invalid configuration is reported by `problems` first; never crash on it here.
      return configuration.endpoint + "/" + S3Encoding.encodeKey(configuration.bucket)
    }
    let base = parts.basePath
    if configuration.virtualHosted {
      return "\(parts.scheme)://\(configuration.bucket).\(parts.authority)\(base)"
    }
    return "\(parts.scheme)://\(parts.authority)\(base)/\(configuration.bucket)"
  }

  // MARK: - Requests

  /// A PUT of `body`. `createOnly` adds `If-None-Match: *` (412 when the key exists).
  func putObject(
    _ key: String, body: [UInt8], contentType: String, cacheControl: String?, createOnly: Bool
  ) -> S3Request {
    var headers: [(name: String, value: String)] = [
      ("content-type", contentType),
      ("x-amz-content-sha256", SHA256.hex(body)),
    ]
    if let cacheControl { headers.append(("cache-control", cacheControl)) }
    if createOnly { headers.append(("if-none-match", "*")) }
    return S3Request(method: .put, url: objectURL(key), headers: headers, body: body)
  }

  /// A GET of the whole object, or of `range` (inclusive byte offsets) when given.
  func getObject(_ key: String, range: ClosedRange<Int>? = nil) -> S3Request {
    var headers = Self.bodylessHeaders
    if let range { headers.append(("range", "bytes=\(range.lowerBound)-\(range.upperBound)")) }
    return S3Request(method: .get, url: objectURL(key), headers: headers, body: [])
  }

  func headObject(_ key: String) -> S3Request {
    S3Request(method: .head, url: objectURL(key), headers: Self.bodylessHeaders, body: [])
  }

  func deleteObject(_ key: String) -> S3Request {
    S3Request(method: .delete, url: objectURL(key), headers: Self.bodylessHeaders, body: [])
  }

  /// Copies an object onto itself with its metadata restated: this refreshes its
  /// Last-Modified time, which is what retention (and a bucket lifecycle rule) ages by.
  /// `x-amz-meta-touched` records when (seconds since 1970), for operators and tests.
  func copyInPlace(
    _ key: String, contentType: String, cacheControl: String, touchedAt: Int64
  ) -> S3Request {
    let source = "/" + S3Encoding.encodeKey(configuration.bucket) + "/" + S3Encoding.encodeKey(key)
    var headers = Self.bodylessHeaders
    headers += [
      ("content-type", contentType),
      ("cache-control", cacheControl),
      ("x-amz-copy-source", source),
      ("x-amz-metadata-directive", "REPLACE"),
      ("x-amz-meta-touched", String(touchedAt)),
    ]
    return S3Request(method: .put, url: objectURL(key), headers: headers, body: [])
  }

  /// One page of ListObjectsV2 under `prefix`, from the key after `startAfter` when given.
  func listObjects(
    prefix: String, continuationToken: String?, maxKeys: Int, startAfter: String? = nil
  ) -> S3Request {
    var query: [(name: String, value: String)] = [
      ("list-type", "2"), ("max-keys", String(maxKeys)), ("prefix", prefix),
    ]
    if let continuationToken { query.append(("continuation-token", continuationToken)) }
    if let startAfter { query.append(("start-after", startAfter)) }
    return S3Request(
      method: .get, url: bucketURL(query: query), headers: Self.bodylessHeaders, body: [])
  }

  private static var bodylessHeaders: [(name: String, value: String)] {
    [("x-amz-content-sha256", emptyPayloadHash)]
  }
}
