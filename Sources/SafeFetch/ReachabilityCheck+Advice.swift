/// What the `public_address` rule found, in the terms the advice needs.
enum AddressFinding: Sendable, Equatable {
  /// Every address is public.
  case publicAddresses
  /// The name has no address (the lookup failed, or answered nothing).
  case unresolved
  /// The lookup gave no answer in time.
  case timedOut
  /// At least one address is not public. `serviceMayFetch`: the service's own policy
  /// (`ARTWORK_PRIVATE_SOURCES`) lets it fetch every address; `neverAllowed`: one of them is
  /// refused whatever the configuration says (multicast, unspecified...).
  case privateAddresses(serviceMayFetch: Bool, neverAllowed: Bool)
}

extension ReachabilityCheck {
  /// One piece of advice per failed rule, worded for what the rule found and for the service's
  /// configuration; then the ThumbHash reminder, unless the advice named `image_thumbhash`
  /// already. A rule that was not checked gets no advice: the failure before it has its own.
  static func advice(for checks: [ReachabilityReport.Check], address: AddressFinding)
    -> [String]
  {
    let failed = Set(checks.filter(\.failed).map(\.name))
    guard !failed.isEmpty else { return [] }
    var advice: [String] = []
    if failed.contains("https") {
      advice.append("Serve the image over https: phones load only https URLs.")
    }
    if failed.contains("public_address"), let text = addressAdvice(address) {
      advice.append(text)
    }
    if failed.contains("redirects") {
      advice.append(
        "Make every redirect lead to a public https URL, without loops, or send the final URL "
          + "itself.")
    }
    if failed.contains("tls") {
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
    if !advice.contains(where: { $0.contains("image_thumbhash") }) {
      advice.append(
        "Send image_thumbhash too: it shows at once, and wherever the image cannot load.")
    }
    return advice
  }

  /// The advice for a failed `public_address` rule. Re-hosting is offered only when the
  /// service may fetch the address, and `ARTWORK_PRIVATE_SOURCES` named only when listing the
  /// host there would let it.
  static func addressAdvice(_ finding: AddressFinding) -> String? {
    switch finding {
    case .publicAddresses:
      return nil
    case .unresolved:
      return "Check the host name: it does not resolve here, and a phone must find it in public "
        + "DNS; until it does, image_thumbhash is all anyone sees."
    case .timedOut:
      return "Check the host's DNS: the name did not resolve in time, and a phone gives up too; "
        + "send image_thumbhash, which shows whatever the network does."
    case .privateAddresses(let serviceMayFetch, let neverAllowed):
      let start =
        "The URL is private, so only viewers on that network will see it; send image_thumbhash, "
        + "which everyone sees"
      if serviceMayFetch { return start + ", or re-host the image publicly with POST /v1/artwork." }
      if neverAllowed { return start + "." }
      return start
        + ". To re-host it publicly with POST /v1/artwork, the service's operator must first "
        + "list this host or its network in ARTWORK_PRIVATE_SOURCES."
    }
  }
}
