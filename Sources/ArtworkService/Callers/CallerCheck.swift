import ArtworkCore
import HTTP

/// The first check of a write route's head: the client address's count of missing or wrong
/// tokens (429, before the token is looked at), the bearer token (401, counted against the
/// address: 429 past its limit), which names the caller (the head carries the name to the
/// access log and the metrics), then the caller's rate (429). The body's declared size comes
/// next (the HTTP layer's check against the route's limit: 413).
struct CallerCheck: Sendable {
  let authenticator: Authenticator
  let metrics: Metrics
  /// Whether the route takes a credential in every form a media application can send
  /// (`WebhookCredential`: Basic with the token as the password, `?token=`), not only Bearer.
  var webhook = false

  func authorize(_ head: inout HTTPRequestHead) throws(ArtworkError) {
    if let refusal = authenticator.addressRefusal(head.remoteAddress) {
      metrics.recordTokenRefusal(status: 429)
      throw refusal
    }
    let caller: Authenticator.Caller
    do {
      caller =
        webhook
        ? try authenticator.authenticate(webhookToken: WebhookCredential.token(head))
        : try authenticator.authenticate(head.headers["Authorization"])
    } catch {
      let refusal = authenticator.counted(error, from: head.remoteAddress)
      metrics.recordTokenRefusal(status: refusal.kind.status)
      throw refusal
    }
    head.caller = caller.name
    if let refusal = authenticator.overLimit(caller) {
      metrics.recordRateLimited(caller: caller.name)
      throw refusal
    }
  }
}
