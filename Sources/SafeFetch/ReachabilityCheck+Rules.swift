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
  /// host is resolved here, which for a literal asks no server.
  func addressCheck(_ url: CurlURL, resolved: HostResolver.Resolution?) -> Check {
    let host = url.hostName
    switch resolved
      ?? HostResolver.resolve(
        host, within: fetcher.configuration.fetchTimeout, on: fetcher.pool.lookups)
    {
    case .failed(let message):
      return Check(
        name: "public_address", ok: false, reason: "\(host) does not resolve (\(message)).")
    case .timedOut:
      return Check(
        name: "public_address", ok: false,
        reason: "\(host) did not resolve within \(fetcher.configuration.fetchTimeout).")
    case .addresses(let addresses):
      guard !addresses.isEmpty else {
        return Check(name: "public_address", ok: false, reason: "\(host) has no addresses.")
      }
      let refused = addresses.map { AddressPolicy.classify($0) }.filter { !$0.isAllowed }
      let list = addresses.map(\.description).joined(separator: ", ")
      guard refused.isEmpty else {
        let why = refused.map(\.description).joined(separator: "; ")
        return Check(
          name: "public_address", ok: false,
          reason: "\(host) resolves to \(list): \(why); phones refuse private addresses.")
      }
      let subject = IPAddress(parsing: host) == nil ? "\(host) resolves to \(list)" : list
      return Check(
        name: "public_address", ok: true,
        reason: "\(subject): \(addresses.count == 1 ? "a public address" : "all public").")
    }
  }

  /// Every hop https and on a public address; no loop, not too many.
  func redirectCheck(_ outcome: FetchOutcome) -> Check {
    switch outcome.failure {
    case .tooManyRedirects, .loop, .badRedirect:
      return Check(name: "redirects", ok: false, reason: outcome.failure!.error.detail)
    default: break
    }
    let redirects = outcome.hops.dropLast()
    guard !redirects.isEmpty else {
      return Check(name: "redirects", ok: true, reason: "No redirects.")
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
    let count = redirects.count
    return Check(
      name: "redirects", ok: true,
      reason: "\(count) redirect\(count == 1 ? "" : "s"), all https and public.")
  }

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
    let last = outcome.hops.last
    if let last, !last.url.lowercased().hasPrefix("https:") {
      return Check(
        name: "tls", ok: false,
        reason: "\(last.url) is not https, so there is no certificate a phone could check.")
    }
    guard outcome.response != nil, let last else {
      return Check(name: "tls", ok: false, reason: Self.notChecked(outcome))
    }
    return Check(
      name: "tls", ok: true,
      reason: "The certificate of \(CurlURL(last.url)?.hostName ?? last.url) is valid.")
  }

  func statusCheck(_ outcome: FetchOutcome) -> Check {
    guard let response = outcome.response else {
      return Check(name: "status", ok: false, reason: Self.notChecked(outcome))
    }
    let phrase = FetchFailure.reasonPhrase(response.status)
    if response.status == 200 {
      return Check(name: "status", ok: true, reason: "The source answered HTTP 200.")
    }
    return Check(
      name: "status", ok: false,
      reason: "The source answered HTTP \(response.status) \(phrase); phones need 200.")
  }

  func contentTypeCheck(_ outcome: FetchOutcome) -> Check {
    guard let response = outcome.response, (200..<300).contains(response.status) else {
      return Check(name: "content_type", ok: false, reason: Self.notChecked(outcome))
    }
    if case .notImage = outcome.failure {
      return Check(name: "content_type", ok: false, reason: outcome.failure!.error.detail)
    }
    let type = response.header("content-type") ?? ""
    return Check(name: "content_type", ok: true, reason: "Content-Type is \(type).")
  }

  func sizeCheck(_ outcome: FetchOutcome) -> Check {
    let limit = Self.phoneMaxBytes
    if case .tooLarge = outcome.failure {
      let declared = outcome.response?.header("content-length").flatMap { Int($0) }
      let what = declared.map { "declares \($0) bytes" } ?? "sent more than \(limit) bytes"
      return Check(
        name: "size", ok: false,
        reason: "The image \(what); phones stop downloading past \(limit) bytes.")
    }
    guard let source = outcome.source, !source.bytes.isEmpty else {
      return Check(name: "size", ok: false, reason: Self.notChecked(outcome))
    }
    return Check(
      name: "size", ok: true, reason: "\(source.bytes.count) bytes (at most \(limit) allowed).")
  }

  func formatCheck(_ outcome: FetchOutcome) async -> (
    Check, (format: String, width: Int, height: Int)?
  ) {
    guard let source = outcome.source, !source.bytes.isEmpty else {
      return (Check(name: "format", ok: false, reason: Self.notChecked(outcome)), nil)
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

  /// Why a rule could not be checked: the fetch stopped earlier.
  static func notChecked(_ outcome: FetchOutcome) -> String {
    guard let failure = outcome.failure else { return "Not checked." }
    return "Not checked: \(failure.error.detail)"
  }

  /// One piece of advice per failed rule, then the ThumbHash reminder.
  static func advice(for checks: [Check]) -> [String] {
    let failed = Set(checks.filter { !$0.ok }.map(\.name))
    guard !failed.isEmpty else { return [] }
    var advice: [String] = []
    if failed.contains("public_address") || failed.contains("redirects") {
      advice.append(
        "The URL is private, so only viewers on that network will see it; send image_thumbhash, "
          + "which everyone sees, or re-host the image publicly with POST /v1/artwork.")
    }
    if failed.contains("https") {
      advice.append("Serve the image over https: phones load only https URLs.")
    } else if failed.contains("tls") {
      advice.append(
        "Use a certificate from a public CA (for example Let's Encrypt) that names this host.")
    }
    if failed.contains("status") { advice.append("Check the URL: phones need a 200 answer.") }
    if failed.contains("content_type") {
      advice.append("Serve the file with an image/* Content-Type such as image/jpeg.")
    }
    if failed.contains("size") || failed.contains("format") {
      advice.append(
        "Re-encode the image as JPEG or PNG under 2 MB, or let POST /v1/artwork do it and host it.")
    }
    if !failed.contains("public_address") {
      advice.append(
        "Send image_thumbhash too: it shows at once, and wherever the image cannot load.")
    }
    return advice
  }
}
