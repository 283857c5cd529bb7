import ArtworkCore
import HTTP

/// The first check of a write route's head: the bearer token, which names the caller (the
/// head carries the name to the access log and the metrics) and its share, then the caller's
/// rate (429). A missing or wrong token is a 401 counted against the client's network, and a
/// 429 once the network is past its limit; a valid token is never refused for what others sent
/// from the same network (a proxy, a NAT, a /24). The body's declared size comes next (the HTTP
/// layer's check against the route's limit: 413).
struct CallerCheck: Sendable {
  let authenticator: Authenticator
  let metrics: Metrics
  /// How client addresses group into networks (an anonymous caller's share).
  var networks: ClientNetworks = .standard
  /// Told once when `X-Forwarded-For` comes from a peer that is not a trusted proxy.
  var forwarding: ForwardingNotice?
  /// Whether the route takes a credential in every form a media application can send
  /// (`WebhookCredential`: Basic with the token as the password, `?token=`), not only Bearer.
  var webhook = false

  func authorize(_ head: inout HTTPRequestHead) throws(ArtworkError) {
    forwarding?.look(at: head)
    let caller: Authenticator.Caller
    do {
      caller =
        webhook
        ? try authenticator.authenticate(webhookToken: WebhookCredential.token(head))
        : try authenticator.authenticate(head.headers["Authorization"])
    } catch {
      head.share = CallerShare.named(nil, address: head.remoteAddress, networks: networks)
      // A network past its limit of wrong tokens is answered 429 at once, without counting;
      // otherwise the 401 counts, and becomes that 429 at the limit.
      let refusal =
        authenticator.addressRefusal(head.remoteAddress)
        ?? authenticator.counted(error, from: head.remoteAddress)
      metrics.recordTokenRefusal(status: refusal.kind.status)
      throw refusal
    }
    head.caller = caller.name
    head.hasCredential = caller.name != APIToken.anonymous
    head.share = CallerShare.named(caller.name, address: head.remoteAddress, networks: networks)
    if let refusal = authenticator.overLimit(caller) {
      metrics.recordRateLimited(caller: caller.name)
      throw refusal
    }
  }
}
