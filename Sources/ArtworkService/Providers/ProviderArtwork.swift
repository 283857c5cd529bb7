import ArtworkCore
import JSON
import Observability
import WorkerHost

/// The artwork of a provider's event, on the push path as `/v1/content` makes it: a URL
/// through its remembered result (`URLArtwork`), an image sent in the body rendered and
/// stored (`ArtworkRenderer`), either waited for at most the caller's wait (`CallerWait`).
/// A failure is reported, never thrown: a webhook sender retries or disables a hook that
/// answers an error.
struct ProviderArtwork: Sendable {
  let urlArtwork: URLArtwork
  let renderer: ArtworkRenderer
  let wait: CallerWait
  let urls: HostedURLs
  let logger: Logger

  /// What the answer's `artwork` holds and the headers say.
  struct Fill: Sendable {
    /// The hosted image and its hash; nil: an empty `artwork`.
    var answer: ArtworkAnswer?
    /// `Artwork-Status`: `ready`, `pending`, `failed; reason="..."` or `none; reason="..."`.
    var status: String
    /// The age of a remembered result (the `Age` header).
    var age: Int?
  }

  /// The artwork of `source` framed for `options`, within `seconds`, `caller` recorded as an
  /// owner of what it answers.
  func fill(
    _ source: ImageSource, options: ArtworkOptions, seconds: Int, revalidate: Bool,
    caller: String
  ) async -> Fill {
    // The wait's clock starts before any storage lookup.
    let deadline = ContinuousClock.now + .seconds(seconds)
    switch source {
    case .none(let reason):
      return Fill(status: "none; reason=\"\(reason.rawValue)\"")
    case .bytes(let bytes, let contentType):
      let outcome = await wait.outcome(
        until: deadline, remembered: { () throws(ArtworkError) -> ArtworkAnswer? in nil },
        { [renderer] () throws(ArtworkError) in
          try await renderer.renderAndStore(
            bytes, declaredType: contentType.map(mediaTypeEssence), options: options,
            caller: caller)
        })
      return finished(outcome.map { ($0, nil) }, last: nil)
    case .url(let url, let fallback):
      let outcome = await wait.outcome(
        until: deadline,
        remembered: { () throws(ArtworkError) in
          revalidate
            ? nil : try remembered(url, fallback: fallback, options: options, caller: caller)
        },
        { [self] () throws(ArtworkError) in
          try await artwork(
            url, fallback: fallback, options: options, revalidate: revalidate, caller: caller)
        })
      var last: ArtworkAnswer?
      if case .finished(.success) = outcome {
      } else {
        last = await wait.answer(afterWaitEnding: deadline) { [urlArtwork] in
          await urlArtwork.lastStored(url: url, options: options, caller: caller)
        }
      }
      return finished(outcome, last: last)
    }
  }

  /// The fill of an outcome; not ready (or failed), the source's last artwork when it has one.
  private func finished(
    _ outcome: BoundedWait.Outcome<(ArtworkAnswer, age: Int?)>, last: ArtworkAnswer?
  ) -> Fill {
    switch outcome {
    case .finished(.success(let (answer, age))):
      return Fill(answer: answer, status: "ready", age: age)
    case .finished(.failure(let error)):
      logger.log(
        .info, "provider event answered without its artwork: the source failed",
        ["error": .string(error.kind.rawValue), "detail": .string(error.detail)])
      return Fill(answer: last, status: "failed; reason=\"\(error.kind.rawValue)\"")
    case .pending:
      return Fill(answer: last, status: "pending")
    }
  }

  /// `url`'s artwork; on the origin's refusal (a 4xx), `fallback`'s.
  private func artwork(
    _ url: String, fallback: String?, options: ArtworkOptions, revalidate: Bool, caller: String
  ) async throws(ArtworkError) -> (ArtworkAnswer, age: Int?) {
    do {
      return try await urlArtwork.artwork(
        from: url, options: options, revalidate: revalidate, caller: caller)
    } catch {
      guard let fallback, Self.isRefusal(error) else { throw error }
      return try await urlArtwork.artwork(
        from: fallback, options: options, revalidate: revalidate, caller: caller)
    }
  }

  /// What memory holds for `url` (or, when memory holds its refusal, for `fallback`).
  private func remembered(
    _ url: String, fallback: String?, options: ArtworkOptions, caller: String
  ) throws(ArtworkError) -> (ArtworkAnswer, age: Int?)? {
    do {
      return try urlArtwork.remembered(url: url, options: options, caller: caller)
        .map { ($0.0, $0.age) }
    } catch {
      guard let fallback, Self.isRefusal(error) else { throw error }
      return try urlArtwork.remembered(url: fallback, options: options, caller: caller)
        .map { ($0.0, $0.age) }
    }
  }

  /// Whether `error` is an origin's 4xx answer.
  static func isRefusal(_ error: ArtworkError) -> Bool {
    error.members.contains { member in
      guard member.name == "origin_status", case .int(let status) = member.value else {
        return false
      }
      return (400..<500).contains(status)
    }
  }

  /// The answer's `artwork` object: the three fields a relay merges into an activity's
  /// `content`, or none.
  func artworkJSON(_ fill: Fill) -> JSONValue {
    guard let answer = fill.answer else { return .object([]) }
    return .object([
      ("image_url", .string(urls.url(fileName: answer.fileName))),
      ("image_shape", .string(answer.shape)),
      ("image_thumbhash", .string(answer.thumbHash)),
    ])
  }
}

extension BoundedWait.Outcome {
  /// The outcome with its value changed by `transform`.
  func map<Other: Sendable>(_ transform: (Value) -> Other) -> BoundedWait.Outcome<Other> {
    switch self {
    case .finished(.success(let value)): .finished(.success(transform(value)))
    case .finished(.failure(let error)): .finished(.failure(error))
    case .pending: .pending
    }
  }
}
