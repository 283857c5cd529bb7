import Foundation

/// The webhook bodies of `Tests/TestSupport/ProviderFixtures` (see its README.md), with their
/// image hosts filled in.
public enum ProviderFixtures {
  /// The folder holding one folder of bodies per provider.
  public static let directory: URL = Repository.root.appendingPathComponent(
    "Tests/TestSupport/ProviderFixtures")

  /// The hosts the placeholders stand for in real bodies.
  public static let realHosts: [String: String] = [
    "TVDB": "https://artworks.thetvdb.com", "TMDB": "https://image.tmdb.org",
    "SERVER": "http://192.168.1.20:8096",
  ]

  /// The text of `{provider}/{name}.json`, each `{{PLACEHOLDER}}` replaced by `hosts`' value
  /// (the real hosts by default); a missing fixture is a broken checkout, so it traps.
  public static func text(_ provider: String, _ name: String, hosts: [String: String] = realHosts)
    -> String
  {
    let url = directory.appendingPathComponent(provider).appendingPathComponent(name + ".json")
    guard let data = FileManager.default.contents(atPath: url.path) else {
      fatalError("missing provider fixture \(url.path)")
    }
    var text = String(decoding: data, as: UTF8.self)
    for (name, value) in hosts { text = text.replacingOccurrences(of: "{{\(name)}}", with: value) }
    return text
  }

  /// `text` as bytes.
  public static func body(_ provider: String, _ name: String, hosts: [String: String] = realHosts)
    -> [UInt8]
  {
    Array(text(provider, name, hosts: hosts).utf8)
  }

  /// A multipart/form-data body of `fields` (name, content type or nil, bytes, file name or
  /// nil), and its Content-Type.
  public static func multipart(
    _ fields: [(name: String, type: String?, bytes: [UInt8], file: String?)],
    boundary: String = "------------------------plexwebhook0123"
  ) -> (body: [UInt8], contentType: String) {
    var body: [UInt8] = []
    for field in fields {
      var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field.name)\""
      if let file = field.file { head += "; filename=\"\(file)\"" }
      head += "\r\n"
      if let type = field.type { head += "Content-Type: \(type)\r\n" }
      head += "\r\n"
      body += Array(head.utf8) + field.bytes + Array("\r\n".utf8)
    }
    body += Array("--\(boundary)--\r\n".utf8)
    return (body, "multipart/form-data; boundary=\(boundary)")
  }
}
