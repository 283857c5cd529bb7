import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// Reading the provider fixtures as their readers do.
enum ProviderReading {
  /// `{provider}/{name}.json` read by `provider`'s reader, as JSON (or as `contentType`).
  static func read(
    _ provider: Provider, _ name: String, contentType: String? = "application/json",
    server: String? = nil
  ) throws(ArtworkError) -> ProviderEvent {
    let folder = provider.rawValue
    return try provider.read(
      ProviderInput(
        body: ProviderFixtures.body(folder, name), contentType: contentType, server: server))
  }

  /// The error `provider`'s reader throws for `body`, or nil when it read it.
  static func refusal(_ provider: Provider, _ body: String, contentType: String? = nil)
    -> ArtworkError?
  {
    do {
      _ = try provider.read(ProviderInput(body: Array(body.utf8), contentType: contentType))
      return nil
    } catch {
      return error
    }
  }
}
