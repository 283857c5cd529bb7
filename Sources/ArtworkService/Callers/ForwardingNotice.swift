import HTTP
import Observability
import Synchronization

/// One warning, once per process, when a write request carries `X-Forwarded-For` from a peer
/// that is not a trusted proxy (`ARTWORK_TRUSTED_PROXIES`): a proxy in front that the service
/// does not trust makes every client behind it one client, with one share and one count of
/// wrong tokens. Looked at by `CallerCheck` until it has warned; after that it costs one load.
final class ForwardingNotice: Sendable {
  private let proxies: TrustedProxies
  private let logger: Logger
  private let warned = Atomic<Bool>(false)

  init(proxies: TrustedProxies, logger: Logger) {
    self.proxies = proxies
    self.logger = logger
  }

  /// Warns (the first time) when `head` came with `X-Forwarded-For` from an untrusted peer.
  func look(at head: HTTPRequestHead) {
    guard !warned.load(ordering: .relaxed), head.headers.contains("X-Forwarded-For"),
      let peer = head.peerAddress, !proxies.trusts(peerText: peer),
      !warned.exchange(true, ordering: .relaxed)
    else { return }
    logger.warn(
      "X-Forwarded-For came from a peer that is not a trusted proxy, and is ignored: every "
        + "client behind it counts as the peer (one share, one count of wrong tokens). If it "
        + "is your proxy, name it in ARTWORK_TRUSTED_PROXIES. Said once.",
      ["peer": .string(peer), "trusted_proxies": .string(proxies.description)])
  }
}
