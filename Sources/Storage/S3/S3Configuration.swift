import ArtworkCore

/// Where an `S3Storage` keeps its objects and how it signs requests: one value, validated once.
///
/// Keys: objects live at `{prefix}/objects/{id}.{ext}`, records at `{prefix}/records/{sha256}`.
/// Requests go to `{endpoint}/{bucket}/{key}` (path style, the default, which every
/// S3-compatible store accepts) or `{scheme}://{bucket}.{host}/{key}` when `virtualHosted`.
public struct S3Configuration: Sendable, Equatable {
  /// The store's base URL without a trailing slash, e.g. `https://s3.eu-west-1.amazonaws.com`
  /// or `http://127.0.0.1:8333`. May carry a base path, which is kept in front of every key.
  public var endpoint: String
  /// The SigV4 signing region (`us-east-1` for most S3-compatible stores).
  public var region: String
  /// The bucket.
  public var bucket: String
  /// The key prefix without leading or trailing slashes; empty means the bucket's root.
  public var prefix: String
  /// The access key id.
  public var accessKey: String
  /// The secret access key (never logged).
  public var secretKey: String
  /// `{bucket}.{host}` addressing instead of `{host}/{bucket}`.
  public var virtualHosted: Bool
  /// The longest one request may take, connection included.
  public var requestTimeout: Duration
  /// The longest connecting may take; short, so an unreachable store is reported quickly.
  public var connectTimeout: Duration

  /// Normalises `endpoint` (no trailing slash) and `prefix` (no leading/trailing slashes).
  /// Call `problems` to validate.
  public init(
    endpoint: String, region: String = "us-east-1", bucket: String, prefix: String = "",
    accessKey: String, secretKey: String, virtualHosted: Bool = false,
    requestTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(5)
  ) {
    var endpoint = endpoint
    while endpoint.hasSuffix("/") { endpoint.removeLast() }
    self.endpoint = endpoint
    self.region = region
    self.bucket = bucket
    self.prefix = String(
      prefix.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/"))
    self.accessKey = accessKey
    self.secretKey = secretKey
    self.virtualHosted = virtualHosted
    self.requestTimeout = requestTimeout
    self.connectTimeout = connectTimeout
  }

  /// Everything wrong with this configuration, one sentence each for an operator; empty when
  /// usable. Never includes the secret key.
  public var problems: [String] {
    var problems: [String] = []
    if endpointParts == nil {
      problems.append(
        "the S3 endpoint must be an http:// or https:// URL with a host, got \"\(endpoint)\"")
    }
    if !Self.isValidBucketName(bucket) {
      problems.append(
        "the S3 bucket name \"\(bucket)\" is not valid (3-63 characters: a-z, 0-9, '.', '-')")
    }
    if region.isEmpty || !region.utf8.allSatisfy({ S3Encoding.isUnreserved($0) }) {
      problems.append("the S3 region \"\(region)\" is not valid")
    }
    if accessKey.isEmpty || secretKey.isEmpty {
      problems.append("S3 credentials are missing (access key id and secret access key)")
    }
    if accessKey.contains(":") {
      problems.append("the S3 access key id must not contain ':'")
    }
    return problems
  }

  /// The endpoint split into scheme, authority (`host[:port]`) and base path.
  var endpointParts: (scheme: String, authority: String, basePath: String)? {
    guard let (scheme, rest) = splitHTTPScheme(endpoint) else { return nil }
    let authority = rest.prefix(while: { $0 != "/" })
    guard !authority.isEmpty, !authority.contains("@"), !rest.contains("?"), !rest.contains("#")
    else { return nil }
    return (scheme, String(authority), String(rest.dropFirst(authority.count)))
  }

  /// The S3 bucket naming rules that matter for both addressing styles: 3 to 63 characters of
  /// lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit.
  public static func isValidBucketName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    func isAlnum(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) }
    guard (3...63).contains(bytes.count), let first = bytes.first, let last = bytes.last,
      isAlnum(first), isAlnum(last)
    else { return false }
    return bytes.allSatisfy { isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
  }
}
