import ArtworkCore
import CurlClient

extension ReachabilityCheck {
  typealias Check = ReachabilityReport.Check

  func httpsCheck(_ url: CurlURL) -> Check {
    url.scheme == "https"
      ? Check(name: "https", ok: true, reason: "The URL uses https.")
      : Check(
        name: "https", ok: false, reason: "The URL uses \(url.scheme); phones load only https URLs."
      )
  }

  /// Every address the host resolves to, judged as a phone would (public only). `resolved` is
  /// the fetch's own lookup of the name, when it made one; otherwise (an address literal) the
  /// host is resolved here, which for a literal asks no server. A name that does not resolve
  /// fails the rule as such: it is not called private.
  func addressCheck(_ url: CurlURL, resolved: HostResolver.Resolution?) -> (Check, AddressFinding) {
    let host = url.hostName
    switch resolved
      ?? HostResolver.resolve(
        host, within: fetcher.configuration.fetchTimeout, on: fetcher.pool.lookups)
    {
    case .failed(let message):
      return (
        Check(name: "public_address", ok: false, reason: "\(host) does not resolve (\(message))."),
        .unresolved
      )
    case .timedOut:
      return (
        Check(
          name: "public_address", ok: false,
          reason: "\(host) did not resolve within \(fetcher.configuration.fetchTimeout)."),
        .timedOut
      )
    case .addresses(let addresses):
      guard !addresses.isEmpty else {
        return (
          Check(name: "public_address", ok: false, reason: "\(host) has no addresses."),
          .unresolved
        )
      }
      let refused = addresses.map { AddressPolicy.classify($0) }.filter { !$0.isAllowed }
      let list = addresses.map(\.description).joined(separator: ", ")
      guard refused.isEmpty else {
        let why = refused.map(\.description).joined(separator: "; ")
        let name = HostName.lookupForm(host)
        let serviceMayFetch = addresses.allSatisfy {
          servicePolicy.judge($0, host: name).isAllowed
        }
        // An address literal is the address: "resolves to" would say it twice.
        let subject = IPAddress(parsing: host) == nil ? "\(host) resolves to \(list): " : ""
        return (
          Check(
            name: "public_address", ok: false,
            reason: "\(subject)\(why); phones refuse private addresses."),
          .privateAddresses(
            serviceMayFetch: serviceMayFetch, neverAllowed: refused.contains(where: \.neverAllowed))
        )
      }
      let subject = IPAddress(parsing: host) == nil ? "\(host) resolves to \(list)" : list
      return (
        Check(
          name: "public_address", ok: true,
          reason: "\(subject): \(addresses.count == 1 ? "a public address" : "all public")."),
        .publicAddresses
      )
    }
  }

  /// Every hop https and on a public address; no loop, not too many. Not checked when the
  /// fetch stopped before the last hop answered (it cannot be known whether more would come).
  func redirectCheck(_ outcome: FetchOutcome) -> Check {
    switch outcome.failure {
    case .tooManyRedirects, .loop, .badRedirect:
      return Check(name: "redirects", ok: false, reason: outcome.failure!.error.detail)
    case .scheme, .userInfo, .malformedURL:
      // Only a redirect gets here with hops: the URL itself was refused before any.
      if let location = outcome.hops.last?.location {
        return Check(
          name: "redirects", ok: false,
          reason: "A redirect leads to \(location), which cannot be fetched: "
            + Self.continuing(outcome.failure!.error.detail))
      }
    default: break
    }
    for hop in outcome.hops.dropFirst() {
      if !hop.url.lowercased().hasPrefix("https:") {
        return Check(
          name: "redirects", ok: false,
          reason: "A redirect leads to \(hop.url), which is not https.")
      }
      if let refusal = hop.refused.first {
        return Check(
          name: "redirects", ok: false,
          reason: "A redirect leads to \(hop.url): \(refusal); phones refuse private addresses.")
      }
      if let address = hop.address.flatMap({ IPAddress(parsing: $0) }),
        case let verdict = AddressPolicy.classify(address), !verdict.isAllowed
      {
        return Check(
          name: "redirects", ok: false,
          reason: "A redirect leads to \(hop.url): \(verdict); phones refuse private addresses.")
      }
    }
    guard outcome.response != nil else {
      return .skipped("redirects", Self.notChecked(outcome))
    }
    let count = outcome.hops.count - 1
    guard count > 0 else { return Check(name: "redirects", ok: true, reason: "No redirects.") }
    return Check(
      name: "redirects", ok: true,
      reason: "\(count) redirect\(count == 1 ? "" : "s"), all https and public.")
  }

  /// The certificate of the host that answered. Not checked when nothing is https (the
  /// `https` or `redirects` rule says so) or when no answer came.
  func tlsCheck(_ url: CurlURL, _ outcome: FetchOutcome) -> Check {
    switch outcome.failure {
    case .certificate(let host, let reason):
      return Check(
        name: "tls", ok: false, reason: "The certificate of \(host) is not valid: \(reason).")
    case .tls(let host, let reason):
      return Check(
        name: "tls", ok: false, reason: "The TLS handshake with \(host) failed: \(reason).")
    default: break
    }
    let last = outcome.hops.last?.url ?? url.string
    guard last.lowercased().hasPrefix("https:") else {
      return .skipped(
        "tls", "Not checked: \(last) is not https, so there is no certificate to check.")
    }
    guard outcome.response != nil else { return .skipped("tls", Self.notChecked(outcome)) }
    return Check(
      name: "tls", ok: true,
      reason: "The certificate of \(CurlURL(last)?.hostName ?? last) is valid.")
  }

  /// The final answer's status. Not checked without one, or when the redirects never ended.
  func statusCheck(_ outcome: FetchOutcome) -> Check {
    guard let response = outcome.response,
      !SourceFetcher.redirectStatuses.contains(response.status)
    else {
      return .skipped("status", Self.notChecked(outcome))
    }
    let phrase = FetchFailure.reasonPhrase(response.status)
    if response.status == 200 {
      return Check(name: "status", ok: true, reason: "The source answered HTTP 200.")
    }
    return Check(
      name: "status", ok: false,
      reason: "The source answered HTTP \(response.status) \(phrase); phones need 200.")
  }

  /// The Content-Type of a 2xx answer; not checked without one.
  func contentTypeCheck(_ outcome: FetchOutcome) -> Check {
    guard let response = outcome.response, (200..<300).contains(response.status) else {
      return .skipped("content_type", Self.notChecked(outcome))
    }
    if case .notImage = outcome.failure {
      return Check(name: "content_type", ok: false, reason: outcome.failure!.error.detail)
    }
    let type = response.header("content-type") ?? ""
    return Check(name: "content_type", ok: true, reason: "Content-Type is \(type).")
  }

  /// The body's size, counted on the stream; not checked when no image body came.
  func sizeCheck(_ outcome: FetchOutcome) -> Check {
    let limit = Self.phoneMaxBytes
    if case .tooLarge = outcome.failure {
      let declared = outcome.response?.header("content-length").flatMap { Int($0) }
      let what = declared.map { "declares \($0) bytes" } ?? "sent more than \(limit) bytes"
      return Check(
        name: "size", ok: false,
        reason: "The image \(what); phones stop downloading past \(limit) bytes.")
    }
    guard let source = outcome.source else { return .skipped("size", Self.notChecked(outcome)) }
    return Check(
      name: "size", ok: true, reason: "\(source.bytes.count) bytes (at most \(limit) allowed).")
  }

  /// Whether the bytes are an image a phone decodes; not checked when no image body came.
  func formatCheck(_ outcome: FetchOutcome) async -> (
    Check, (format: String, width: Int, height: Int)?
  ) {
    guard let source = outcome.source else {
      return (.skipped("format", Self.notChecked(outcome)), nil)
    }
    guard !source.bytes.isEmpty else {
      return (Check(name: "format", ok: false, reason: "The source sent an empty body."), nil)
    }
    guard let sniffed = await sniff(source.bytes) else {
      return (
        Check(
          name: "format", ok: false,
          reason: "The bytes are not an image format phones decode (JPEG, PNG, HEIC, GIF, WebP)."),
        nil
      )
    }
    return (
      Check(
        name: "format", ok: true,
        reason: "\(sniffed.format.uppercased()), \(sniffed.width)×\(sniffed.height) pixels."),
      sniffed
    )
  }

  /// Why a rule could not be checked: the fetch stopped before it. Worded for a phone: an
  /// address the phone would not dial is named as such, with nothing about what the service's
  /// own configuration allows.
  static func notChecked(_ outcome: FetchOutcome) -> String {
    switch outcome.failure {
    case nil:
      return "Not checked: the source gave no answer."
    case .refused(let verdict, let host):
      let what = host.map(verdict.describing(host:)) ?? verdict.description
      return "Not checked: \(what); phones do not connect to addresses that are not public."
    case .unresolved:
      return "Not checked: the host does not resolve."
    case let failure?:
      return "Not checked: " + continuing(failure.error.detail)
    }
  }

  /// A sentence made to follow a colon: its first letter lower case, unless the first word is
  /// an abbreviation ("TLS", "HTTP").
  static func continuing(_ sentence: String) -> String {
    guard let first = sentence.first, first.isUppercase,
      sentence.dropFirst().first?.isLowercase == true
    else { return sentence }
    return first.lowercased() + sentence.dropFirst()
  }
}
