import ArtworkCore
import HTTP

extension RequestFuzzing {
  /// `X-Forwarded-For` behind `ARTWORK_TRUSTED_PROXIES`: the input's first line is the list of
  /// trusted proxies, its second the peer's address, each further line one field line. The
  /// client named is the peer when the peer is not trusted (the field ignored); otherwise an
  /// address that reads back, whatever the field held.
  package static func forwardedFor(_ input: UnsafeRawBufferPointer) {
    let lines = String(decoding: input, as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 2 else { return }
    var problems: [String] = []
    let proxies = TrustedProxies(
      parsing: lines[0].split(separator: ",").map { HeaderSyntax.trimmed(String($0)) },
      problems: &problems)
    var headers = HTTPHeaders()
    for line in lines.dropFirst(2) { headers.add("X-Forwarded-For", line) }
    let peer = lines[1]
    let client = proxies.client(peer: peer, headers: headers)
    guard let peerAddress = IPAddress(parsing: peer), proxies.trusts(peerAddress) else {
      precondition(client == peer, "an untrusted peer's field was believed: \(client)")
      return
    }
    precondition(IPAddress(parsing: client) != nil, "the client is not an address: \(client)")
  }
}
