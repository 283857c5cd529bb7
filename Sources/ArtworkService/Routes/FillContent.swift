import ArtworkCore
import HTTP
import ImageWorkers
import Imaging
import SafeFetch
import Storage

// `POST /v1/content`: a relay's Live Activity content, back with its artwork filled in.

extension ArtworkApp {
  /// The handler: read the document and the relay's rules, then
  /// - `image_url` absent or null: the document as sent;
  /// - `image_url` one of our hosted URLs: `image_thumbhash` from the stored object, nothing
  ///   fetched;
  /// - any other URL: fetched and framed as `POST /v1/artwork` would (`image_shape` from the
  ///   document, `size` and `crop` from the query), through the same result cache, and both
  ///   fields set from what was stored.
  func fillContent(_ request: HTTPRequest, _ context: WriteContext) async throws(ArtworkError)
    -> HTTPResponse
  {
    let query = try contentOptions(request.query)
    let document = try ContentDocument(parsing: request.body)
    let filled: [UInt8]
    switch document.imageURL {
    case .absent, .null:
      filled = document.bytes
    case .url(let url):
      if let key = hostedKey(url) {
        filled = document.filled(imageURL: nil, thumbHash: try await storedThumbHash(key, url: url))
      } else {
        var fields = query
        fields["shape"] = document.shape ?? "square"
        let answer = try await artwork(from: url, options: try ArtworkOptions(fields: fields))
        filled = document.filled(
          imageURL: config.imageURL(fileName: answer.fileName), thumbHash: answer.thumbHash)
      }
    }
    return JSONResponse.make(200, text: filled)
  }

  /// `size` and `crop` from the query string (checked now, before the document is read); the
  /// shape is the document's `image_shape`.
  private func contentOptions(_ query: [String: String]) throws(ArtworkError) -> [String: String] {
    if query["shape"] != nil {
      throw ArtworkError(
        .badRequest, "The shape comes from the document's image_shape, not the query string.")
    }
    if let unknown = query.keys.sorted().first(where: { !["size", "crop"].contains($0) }) {
      throw ArtworkError(
        .badRequest,
        "\(ClientText.quoted(unknown)) is not an option of /v1/content; use size and crop.")
    }
    _ = try ArtworkOptions(fields: query)
    return query
  }

  /// The key of `url` when it is one of our hosted image URLs (`{ARTWORK_PUBLIC_URL}/v1/images/
  /// {id}.{ext}`, nothing after the name), else nil.
  func hostedKey(_ url: String) -> ArtworkKey? {
    let prefix = config.publicURL + "/v1/images/"
    guard url.hasPrefix(prefix) else { return nil }
    return ArtworkKey(fileName: String(url.dropFirst(prefix.count)))
  }

  /// The ThumbHash of a stored object, computed from its bytes (as `POST /v1/artwork` computed
  /// it) and remembered like a URL's, so a relay's repeat costs nothing.
  private func storedThumbHash(_ key: ArtworkKey, url: String) async throws(ArtworkError)
    -> String
  {
    let lease: ResultCache<ThumbHashAnswer>.Lease
    switch try await lookUp(url, variant: "stored", in: thumbHashResults) {
    case .answer(let answer, _): return answer.thumbHash
    case .produce(let started): lease = started
    }
    do throws(ArtworkError) {
      guard let object = try await storage.get(key) else {
        throw ArtworkError(
          .unprocessableContent,
          "image_url names a hosted image that is no longer stored (\(key.fileName)); send its source URL again to host it anew."
        )
      }
      let computed = try await processor.thumbHash(object.bytes, declaredType: nil)
      return try await lease.produced(ThumbHashAnswer(computed), validators: Validators()).thumbHash
    } catch {
      return try await lease.failed(error).thumbHash
    }
  }
}
