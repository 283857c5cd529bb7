import ArtworkCore
import HTTP

/// Who may scrape `/metrics`: anyone, or, with `ARTWORK_METRICS_TOKEN` set, only a request with
/// `Authorization: Bearer <that token>` (Prometheus' `authorization` block sends it), so a
/// deployment keeps its metrics (and the token names they carry) private without a proxy.
struct MetricsAccess: Sendable {
  /// The token; nil: `/metrics` is public.
  let token: [UInt8]?

  /// Refuses a scrape without the token (401, as a write without its token is).
  func admit(_ head: HTTPRequestHead) throws(ArtworkError) {
    guard let token else { return }
    guard let presented = Authenticator.bearerToken(head.headers["Authorization"]),
      Authenticator.constantTimeEquals(token, presented)
    else {
      throw ArtworkError(
        .unauthorized,
        "/metrics needs `Authorization: Bearer <ARTWORK_METRICS_TOKEN>` on this service.")
    }
  }
}
