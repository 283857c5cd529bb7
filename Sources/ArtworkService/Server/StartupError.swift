/// Why the service could not start: one sentence that names the cause in the operator's terms
/// ("cannot listen on 127.0.0.1:8080: address already in use").
public struct StartupError: Error, Sendable, CustomStringConvertible {
  public let description: String

  init(_ description: String) {
    self.description = description
  }
}
