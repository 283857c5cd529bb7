import ArtworkCore
import CurlClient

/// One HTTP response as received: status, headers (names lower case), body so far.
struct HopResponse: Sendable, Equatable {
  var status: Int
  var headers: [String: String]
  var body: [UInt8]

  func header(_ name: String) -> String? { headers[name] }
}

extension SourceFetcher {
  /// One request on a fresh handle: no redirects followed, every dialled address judged
  /// (`privateAllowed` false: no private address at all, listed or not). Non-2xx answers stop
  /// after their headers (a redirect's or error's body is never read).
  func performHop(
    _ url: CurlURL, headers: [String], remaining: Duration, privateAllowed: Bool,
    isCancelled: @escaping () -> Bool
  ) -> (record: FetchHop, response: HopResponse?, failure: FetchFailure?) {
    let state = HopState(maxBytes: configuration.maxBytes)
    let easy = CurlEasy()
    easy.set(url: url)
    easy.set(.protocols, "http,https")
    easy.set(.redirectProtocols, "http,https")
    easy.set(.followLocation, false)
    easy.set(.httpContentDecoding, false)
    easy.set(.sslVerifyPeer, true)
    easy.set(.sslVerifyHost, 2)
    easy.set(.timeoutMS, remaining.milliseconds)
    easy.set(.connectTimeoutMS, min(configuration.connectTimeout, remaining).milliseconds)
    easy.set(.userAgent, configuration.userAgent)
    easy.set(.httpHeader, ["Accept: image/*"] + headers)
    if let trust { easy.set(.caInfoBlob, trust.pem) }

    let policy = configuration.policy
    let host = url.hostName
    var record = FetchHop(url: url.string)
    if IPAddress(parsing: host) == nil {
      let resolution = HostResolver.resolve(url.host, within: remaining, on: pool.lookups)
      record.resolution = resolution
      let (pinned, failure) = judge(resolution, of: url, privateAllowed: privateAllowed)
      if let failure {
        if case .refused(let verdict, _) = failure { record.refused = [verdict] }
        return (record, nil, failure)
      }
      if !pinned.isEmpty { easy.set(.resolve, pinned) }
    }
    // NOTE: this is the SSRF defence. curl calls it with the resolved address of every
    // connection attempt; a refusal means no socket is ever created for that address.
    easy.onOpenSocket = { endpoint in
      let verdict = policy.judge(
        endpoint.address, host: host, port: endpoint.port, privateAllowed: privateAllowed)
      if !verdict.isAllowed { state.refused.append(verdict) }
      if verdict.isAllowed, !verdict.isPublic { state.reachedPrivate = true }
      return verdict.isAllowed
    }
    easy.onHeaderLine = { state.header($0) }
    easy.onBody = { state.body($0) }
    easy.onProgress = { !isCancelled() }

    let status = easy.perform()
    record.refused = state.refused
    record.reachedPrivate = state.reachedPrivate
    if let ip = easy.info(.primaryIP), !ip.isEmpty { record.address = ip }
    let response = state.response
    record.status = response?.status
    if let failure = state.failure { return (record, response, failure) }
    if status.isOK || state.stoppedAfterHeaders { return (record, response, nil) }
    return (record, response, classify(status, host: url.host, refused: state.refused, isCancelled))
  }

  /// A host name is judged on every address it resolves to before anything is dialled: one
  /// refused address refuses the host (the failure). Otherwise the `CURLOPT_RESOLVE` entry that
  /// pins curl to exactly those addresses, so the name is not resolved a second time (a
  /// rebinding DNS server gets one question, judged whole); empty when there is nothing to pin.
  private func judge(
    _ resolution: HostResolver.Resolution, of url: CurlURL, privateAllowed: Bool
  ) -> (pinned: [String], failure: FetchFailure?) {
    switch resolution {
    case .failed:
      return ([], .unresolved(host: url.host))
    case .timedOut:
      return ([], .timeout(seconds: configuration.fetchTimeout.seconds))
    case .addresses(let addresses):
      let name = HostName.lookupForm(url.hostName)
      let verdicts = addresses.map {
        configuration.policy.judge(
          $0, host: name, port: url.port, privateAllowed: privateAllowed)
      }
      if let refusal = verdicts.first(where: { !$0.isAllowed }) {
        return ([], .refused(refusal, host: url.host))
      }
      guard !addresses.isEmpty else { return ([], nil) }
      let list = addresses.map(\.urlHost).joined(separator: ",")
      // Both spellings of an absolute name are pinned, whichever one curl looks up.
      let spellings = Set([name, url.hostName])
      return (spellings.sorted().map { "\($0):\(url.port):\(list)" }, nil)
    }
  }

  /// Turns a curl error into the failure a person can act on.
  private func classify(
    _ status: CurlStatus, host: String, refused: [AddressVerdict], _ isCancelled: () -> Bool
  ) -> FetchFailure {
    if isCancelled() { return .cancelled }
    if status.isTimeout { return .timeout(seconds: configuration.fetchTimeout.seconds) }
    // Refused addresses explain a connect failure (even if other addresses were unreachable).
    if let first = refused.first, status.isConnectFailure { return .refused(first, host: nil) }
    if status.isResolveFailure { return .unresolved(host: host) }
    if status.isCertificateFailure { return .certificate(host: host, reason: status.message) }
    if status.isTLSFailure { return .tls(host: host, reason: status.message) }
    if status.isMalformedURL { return .malformedURL(status.message) }
    if status.isUnsupportedProtocol { return .scheme(status.message) }
    if status.isConnectFailure { return .unreachable(status.message) }
    if status.isBrokenConnection { return .broken(status.message) }
    return .other(status.description)
  }
}

/// What the callbacks of one hop saw. Used on one pool thread only (never shared).
private final class HopState {
  let maxBytes: Int
  var refused: [AddressVerdict] = []
  /// Set when the connection dialled an address an ARTWORK_PRIVATE_SOURCES entry allowed.
  var reachedPrivate = false
  var status: Int?
  var headers: [String: String] = [:]
  var headersComplete = false
  var bodyBytes: [UInt8] = []
  /// Set when the callbacks stopped the transfer for a reason of ours.
  var failure: FetchFailure?
  /// Set when a non-2xx answer was stopped after its headers (deliberately, not a failure).
  var stoppedAfterHeaders = false

  init(maxBytes: Int) {
    self.maxBytes = maxBytes
  }

  var response: HopResponse? {
    guard headersComplete, let status else { return nil }
    return HopResponse(status: status, headers: headers, body: bodyBytes)
  }

  /// Most header bytes accepted per hop (interim 1xx blocks included): a source that streams
  /// headers forever is cut here rather than at the deadline.
  static let maxHeaderBytes = 64 * 1024
  private var headerBytes = 0

  /// One header line. Returns false to stop the transfer.
  func header(_ line: String) -> Bool {
    headerBytes += line.utf8.count + 2
    guard headerBytes <= Self.maxHeaderBytes else {
      failure = .headersTooLarge(limit: Self.maxHeaderBytes)
      return false
    }
    if line.hasPrefix("HTTP/") {
      // A new response (after an interim 1xx): start again.
      let fields = line.split(separator: " ", maxSplits: 2)
      status = fields.count >= 2 ? Int(fields[1]) : nil
      headers = [:]
      return status != nil
    }
    guard line.isEmpty else {
      if let (name, value) = HeaderSyntax.field(line) { headers[name] = value }
      return true
    }
    guard let status, !(100..<200).contains(status) else { return true }
    headersComplete = true
    guard (200..<300).contains(status) else {
      stoppedAfterHeaders = true
      return false
    }
    return checkHeaders()
  }

  /// Cheap refusals before any body byte is read.
  private func checkHeaders() -> Bool {
    if let coding = headers["content-encoding"], coding.lowercased() != "identity" {
      failure = .encoded(coding)
      return false
    }
    let type = headers["content-type"]
    guard let type, Self.isImage(type) else {
      failure = .notImage(contentType: type)
      return false
    }
    if let length = headers["content-length"].flatMap({ Int($0) }), length > maxBytes {
      failure = .tooLarge(limit: maxBytes, declared: length)
      return false
    }
    return true
  }

  /// One body chunk. Returns false to stop the transfer.
  func body(_ chunk: [UInt8]) -> Bool {
    guard bodyBytes.count + chunk.count <= maxBytes else {
      failure = .tooLarge(limit: maxBytes, declared: nil)
      return false
    }
    bodyBytes.append(contentsOf: chunk)
    return true
  }

  /// `image/<subtype>`, parameters and case ignored.
  static func isImage(_ contentType: String) -> Bool {
    let essence = mediaTypeEssence(contentType)
    return essence.hasPrefix("image/") && essence.utf8.count > "image/".utf8.count
  }
}
