/// What a provider's reader reads: the body as the application sent it, its content type, and
/// the media server's address when the webhook URL gives one (`?server=`, for a body that
/// does not say where its server is).
struct ProviderInput: Sendable {
  var body: [UInt8]
  var contentType: String?
  /// The `server` query parameter: a media server's base URL (Emby, or Jellyfin without a
  /// Server URL set in its plugin).
  var server: String?

  init(body: [UInt8], contentType: String?, server: String? = nil) {
    self.body = body
    self.contentType = contentType
    self.server = server
  }
}
