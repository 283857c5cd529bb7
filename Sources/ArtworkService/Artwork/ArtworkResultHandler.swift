import ArtworkCore
import HTTP

// `GET /v1/artwork/results/{id}`: where a `POST /v1/artwork` that did not finish within its
// `Prefer: wait` answers from, once the work it started has ended.

/// 200 with the artwork (as `POST /v1/artwork` answers it) once made; 202 with `Retry-After`
/// while this replica makes it; the problem when the source failed; 404 when the result is
/// not known here (never asked, forgotten, or made on another replica: POST again), and when the
/// id was given to another caller (`ResultID`: the same 404, so an id tells nobody else
/// anything).
struct ArtworkResultHandler: RouteHandler {
  let urlArtwork: URLArtwork
  let response: ArtworkResponse

  func handle(_ request: HTTPRequest, _ context: Void) async throws(ArtworkError) -> HTTPResponse {
    let id = request.pathParameter("id") ?? ""
    let caller = request.caller
    let known = try await urlArtwork.results.known(id: id, caller: caller)
    if case .ready(let answer, let url, let age) = known, await urlArtwork.isStored(answer) {
      try await urlArtwork.renderer.owners.claim(answer, by: caller)
      return response.make(answer, sourceURL: url, age: age, status: 200)
    }
    if case .running = known {
      return JSONResponse.make(
        202,
        .object([
          ("status", .string("pending")),
          ("detail", .string("The artwork is being made; ask again after Retry-After seconds.")),
        ]),
        headers: [("Retry-After", "1")])
    }
    // Unknown, or a result whose image is gone (deleted, or swept by retention).
    throw ArtworkError(
      .notFound,
      "No artwork result is known by this id here: it may have expired, or another replica is making it. POST /v1/artwork again (with Prefer: wait) to get it."
    )
  }
}
