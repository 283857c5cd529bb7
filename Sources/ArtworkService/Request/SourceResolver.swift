import ArtworkCore
import Imaging
import SafeFetch

/// Source bytes ready for the pipeline, wherever they came from.
struct SourceBytes: Sendable {
  var bytes: [UInt8]
  /// The media type the client or the origin declared (lowercased essence).
  var declaredType: String?
  /// The URL the bytes were fetched from, echoed as `source.url`.
  var url: String?
  /// The origin's validators, kept to revalidate later.
  var validators: Validators
  /// The origin answered 304 to a conditional request: there are no bytes, the previous result holds.
  var notModified: Bool
}

/// Turns a request's source into bytes: an upload as it is, a URL through the safe fetcher (and
/// answers `POST /v1/check` with the phone's rules).
struct SourceResolver: Sendable {
  let fetcher: SourceFetcher
  let reachability: ReachabilityCheck

  init(config: ServiceConfig, pool: FetchPool) throws(ArtworkError) {
    fetcher = try SourceFetcher(
      SourceFetcher.Configuration(
        policy: AddressPolicy(privateSources: config.privateSourceList),
        maxBytes: config.maxSourceBytes, fetchTimeout: config.fetchTimeout,
        caFile: config.caFile),
      pool: pool)
    reachability = ReachabilityCheck(pool: pool, fetchTimeout: config.fetchTimeout) { bytes in
      guard let info = try? ImagePipeline.inspect(bytes) else { return nil }
      return (info.format.rawValue, info.width, info.height)
    }
  }

  /// The bytes of an upload, or of a URL fetched now (conditionally when `validators` are given).
  func bytes(for source: SourceInput, validators: Validators? = nil) async throws(ArtworkError)
    -> SourceBytes
  {
    switch source {
    case .upload(let bytes, let declaredType):
      return SourceBytes(
        bytes: bytes, declaredType: declaredType, url: nil, validators: Validators(),
        notModified: false)
    case .url(let url):
      let fetched = try await fetcher.fetch(
        url,
        conditional: ConditionalRequest(
          ifNoneMatch: validators?.etag, ifModifiedSince: validators?.lastModified))
      return SourceBytes(
        bytes: fetched.bytes, declaredType: fetched.contentType.map(mediaTypeEssence), url: url,
        validators: Validators(etag: fetched.etag, lastModified: fetched.lastModified),
        notModified: fetched.isNotModified)
    }
  }
}
