import ArtworkCore
import HTTP

/// The first check of a write route's head: the bearer token (401), which names the caller
/// (the head carries the name to the access log and the metrics), then the caller's rate (429).
/// The body's declared size comes next (the HTTP layer's check against the route's limit: 413).
struct CallerCheck: Sendable {
  let authenticator: Authenticator
  let metrics: Metrics

  func authorize(_ head: inout HTTPRequestHead) throws(ArtworkError) {
    let caller = try authenticator.authenticate(head.headers["Authorization"])
    head.caller = caller.name
    if let refusal = authenticator.overLimit(caller) {
      metrics.recordRateLimited(caller: caller.name)
      throw refusal
    }
  }
}
