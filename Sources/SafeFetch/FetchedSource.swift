/// A fetched source image, or the origin's answer that it has not changed.
public struct FetchedSource: Sendable, Equatable {
  /// The final response status: 2xx with `bytes`, or 304 (not modified, no bytes).
  public let status: Int
  /// The final response's Content-Type, as sent (always `image/...` when `status` is 2xx).
  public let contentType: String?
  /// Validators for a later conditional fetch.
  public let validators: Validators
  /// The body, exactly as sent (no content decoding), at most `maxBytes`.
  public let bytes: [UInt8]
  /// Every request made, in order, the last one answering.
  let hops: [FetchHop]

  /// True for a 304 answer to a conditional request: the previous result still holds.
  public var isNotModified: Bool { status == 304 }
}

/// One request of a fetch: a URL, what it answered, where it pointed.
public struct FetchHop: Sendable, Equatable {
  /// The URL requested (normalised by curl's parser).
  public let url: String
  /// The response status, nil when no response arrived.
  public var status: Int?
  /// The address connected to, nil when no connection was made.
  public var address: String?
  /// The absolute URL a redirect pointed to.
  public var location: String?
  /// Addresses refused for this request, with the reason for each: at connect time, or the
  /// first refused answer of the host name.
  public var refused: [AddressVerdict] = []
  /// Whether the connection dialled a private address an ARTWORK_PRIVATE_SOURCES entry allowed
  /// (then only a redirect to the same host may reach a private address again).
  public var reachedPrivate = false
  /// What the host name resolved to (nil for an address literal).
  var resolution: HostResolver.Resolution?

  init(url: String) {
    self.url = url
  }
}

/// An origin's validators for a response (`ETag`, `Last-Modified`): kept with a result, and sent
/// back (`If-None-Match`, `If-Modified-Since`) to ask whether it still holds.
public struct Validators: Sendable, Equatable, Codable {
  /// The `ETag` (sent back as `If-None-Match`).
  public var etag: String?
  /// The `Last-Modified` date (sent back as `If-Modified-Since`).
  public var lastModified: String?

  /// Validators as an origin sent them (none: an unconditional fetch).
  public init(etag: String? = nil, lastModified: String? = nil) {
    self.etag = etag
    self.lastModified = lastModified
  }

  /// These validators with the ones a 304 sent in place of the old.
  public func updated(by newer: Validators) -> Validators {
    Validators(etag: newer.etag ?? etag, lastModified: newer.lastModified ?? lastModified)
  }

  /// The conditional header lines to send; nil if a value could smuggle a header (CR, LF or NUL
  /// in it).
  var headerLines: [String]? {
    var lines: [String] = []
    for (name, value) in [("If-None-Match", etag), ("If-Modified-Since", lastModified)] {
      guard let value else { continue }
      guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
        return nil
      }
      lines.append("\(name): \(value)")
    }
    return lines
  }
}
