import ArtworkCore

/// A file of the repository built into the binary (`Sources/ArtworkService/Resources`, embedded
/// by SwiftPM as `PackageResources`): the page, its assets and the OpenAPI document. Served
/// as is, with a strong ETag of its bytes.
struct EmbeddedFile: Sendable {
  let contentType: String
  let bytes: [UInt8]
  /// The quoted SHA-256 of the bytes, computed once.
  let etag: String

  init(_ contentType: String, _ bytes: [UInt8]) {
    self.contentType = contentType
    self.bytes = bytes
    self.etag = "\"\(SHA256.hex(bytes))\""
  }

  /// The page for people.
  static let page = EmbeddedFile("text/html; charset=utf-8", PackageResources.index_html)
  /// The contract for machines: OpenAPI 3.1.
  static let openAPI = EmbeddedFile("application/json", PackageResources.openapi_json)
  /// What the page loads, by the name it is served under (`/assets/{name}`).
  static let assets: [String: EmbeddedFile] = [
    "page.css": EmbeddedFile("text/css; charset=utf-8", PackageResources.page_css),
    "page.js": EmbeddedFile("text/javascript; charset=utf-8", PackageResources.page_js),
    "icon.svg": EmbeddedFile("image/svg+xml", PackageResources.icon_svg),
  ]
}
