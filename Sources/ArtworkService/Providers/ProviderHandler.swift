import ArtworkCore
import HTTP
import JSON
import WorkerHost

// `POST /v1/providers/{provider}`: a media application's webhook body as it sends it, answered
// with what it is about and its artwork, hosted.

/// Reads the body with the provider's reader (`Provider.read`), then fills the artwork on the
/// push path (`ProviderArtwork`): 200 with `provider`, `event`, `item` and `artwork` (the
/// three fields a relay merges into an activity's content, or none), and `Artwork-Status`
/// (`ready`, `pending`, `failed; reason=...`, or `none; reason=...` for an event without
/// artwork). Only a request that is wrong is an error: an unknown provider (404), a body that
/// is not the provider's (422), an unknown query option (400).
struct ProviderHandler: RouteHandler {
  let workers: WorkerPool
  let artwork: ProviderArtwork
  let metrics: Metrics
  /// The largest body of a provider that sends an image (`ARTWORK_MAX_SOURCE_BYTES` and form
  /// framing); other providers' bodies may be `webhookBodyBytes`.
  let uploadBodyBytes: Int

  /// The largest webhook body without an image: a Sonarr import of a season pack is tens of
  /// kilobytes.
  static let webhookBodyBytes = 1024 * 1024

  /// The query options: the artwork's `size` and `crop`, the media server's address
  /// (`server`), and the credential of applications that send no header (`token`).
  static let options: Set<String> = ["size", "crop", "server", "token"]

  struct Context: Sendable {
    var provider: Provider
    var limit: Int
  }

  /// The provider (404 listing the known ones), the body's declared size against what the
  /// provider sends (413), and for a multipart body that may carry an image, whether the
  /// workers would take its job (503), as for an upload.
  func check(_ head: inout HTTPRequestHead) throws(ArtworkError) -> Context {
    let name = head.path.split(separator: "/").last.map(String.init) ?? ""
    let provider = try Provider.named(name)
    let multipart = ProviderBody.isMultipart(head.headers["Content-Type"])
    let limit = provider.sendsImages && multipart ? uploadBodyBytes : Self.webhookBodyBytes
    if let declared = head.headers["Content-Length"].flatMap(Int.init), declared > limit {
      throw Self.tooLarge(provider, limit: limit, declared: declared)
    }
    guard provider.sendsImages, multipart else {
      return Context(provider: provider, limit: limit)
    }
    try BodyCheck.admitting(head, workers: workers)
    return Context(provider: provider, limit: limit)
  }

  func handle(_ request: HTTPRequest, _ context: Context) async throws(ArtworkError)
    -> HTTPResponse
  {
    let provider = context.provider
    guard request.body.count <= context.limit else {
      throw Self.tooLarge(provider, limit: context.limit, declared: nil)
    }
    let query = request.query
    if let unknown = query.keys.sorted().first(where: { !Self.options.contains($0) }) {
      throw ArtworkError(
        .badRequest,
        "\(ClientText.quoted(unknown)) is not an option of /v1/providers; use size, crop, "
          + "server or token.")
    }
    var fields = query.filter { $0.key == "size" || $0.key == "crop" }
    _ = try ArtworkOptions(fields: fields)
    let event = try provider.read(
      ProviderInput(
        body: request.body, contentType: request.headers["Content-Type"],
        server: query["server"]))
    fields["shape"] = event.shape.rawValue
    let options = try ArtworkOptions(fields: fields)

    let preferences = RequestPreferences(request.headers)
    // A webhook sender that asks for no wait still gets an answer within the handler's
    // deadline: a failure or a slow origin is reported, never a 503.
    let seconds = artwork.wait.granted(preferences.wait ?? RequestPreferences.maxWait) ?? 0
    let fill = await artwork.fill(
      event.image, options: options, seconds: seconds, revalidate: preferences.revalidate,
      caller: request.caller)
    metrics.recordProviderEvent(provider: provider.rawValue, status: fill.status)

    var headers = [("Artwork-Status", fill.status)]
    if preferences.wait != nil { headers.append(("Preference-Applied", "wait=\(seconds)")) }
    if let age = fill.age { headers.append(("Age", String(age))) }
    return JSONResponse.make(
      200,
      .object([
        ("provider", .string(provider.rawValue)),
        ("event", .string(event.event)),
        ("item", event.item.map(Self.itemJSON) ?? .null),
        ("artwork", artwork.artworkJSON(fill)),
      ]), headers: headers)
  }

  /// The answer's `item`: what the event is about, as a relay writes it.
  static func itemJSON(_ item: ProviderItem) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("kind", .string(item.kind.rawValue)), ("title", .string(item.title)),
    ]
    if let subtitle = item.subtitle { members.append(("subtitle", .string(subtitle))) }
    if let year = item.year { members.append(("year", .int(year))) }
    if let season = item.season { members.append(("season", .int(season))) }
    if let episode = item.episode { members.append(("episode", .int(episode))) }
    return .object(members)
  }

  /// The 413 for a body over what `provider` sends.
  static func tooLarge(_ provider: Provider, limit: Int, declared: Int?) -> ArtworkError {
    let size = declared.map { "is \(ByteCount.text($0))" } ?? "is larger than that"
    return ArtworkError(
      .payloadTooLarge,
      "A \(provider.title) webhook body may be at most \(ByteCount.text(limit)); this one "
        + "\(size).")
  }
}
