import ArtworkCore

extension ServiceConfig {
  /// Comma-separated entries, trimmed, empty entries dropped.
  static func list(_ text: String?) -> [String] {
    guard let text else { return [] }
    return text.split(separator: ",").map { HeaderSyntax.trimmed(String($0)) }
      .filter { !$0.isEmpty }
  }

  static func readTokens(_ reader: inout ConfigReader, warnings: inout [String]) -> [String] {
    let tokens = list(reader.text("ARTWORK_API_TOKENS"))
    var valid: [String] = []
    for (index, token) in tokens.enumerated() {
      // A token travels in an Authorization header: visible ASCII only.
      guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
        reader.refuse(
          "ARTWORK_API_TOKENS", token,
          "token \(index + 1) of \(tokens.count) has spaces, control or non-ASCII characters",
          secret: true)
        continue
      }
      if token.utf8.count < 16 {
        warnings.append(
          "ARTWORK_API_TOKENS: token \(index + 1) of \(tokens.count) is shorter than 16 "
            + "characters and easy to guess")
      }
      valid.append(token)
    }
    return valid
  }

  static func readS3(_ reader: inout ConfigReader, storage: StorageLocation) -> S3Settings {
    let region = reader.value(
      "ARTWORK_S3_REGION", default: "us-east-1",
      accepted: "expected a region name of lowercase letters, digits and hyphens"
    ) { text in
      text.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
        ? text : nil
    }
    let endpoint = reader.value(
      "ARTWORK_S3_ENDPOINT", default: "https://s3.\(region).amazonaws.com",
      accepted: "expected an absolute http(s) URL without user, query or fragment"
    ) { PublicURL(parsing: $0)?.text }
    let keyID = reader.text("ARTWORK_S3_ACCESS_KEY_ID") ?? reader.text("AWS_ACCESS_KEY_ID")
    let secret =
      reader.text("ARTWORK_S3_SECRET_ACCESS_KEY") ?? reader.text("AWS_SECRET_ACCESS_KEY")
    let virtualHosted = reader.boolean("ARTWORK_S3_VIRTUAL_HOSTED", default: false)
    if case .s3(let bucket, _) = storage, keyID == nil || secret == nil {
      reader.problem(
        "ARTWORK_STORAGE=\"s3://\(bucket)\" needs credentials: set ARTWORK_S3_ACCESS_KEY_ID "
          + "and ARTWORK_S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)")
    }
    return S3Settings(
      endpoint: endpoint, region: region, accessKeyID: keyID ?? "",
      secretAccessKey: secret ?? "", virtualHosted: virtualHosted)
  }

  /// Warnings for a public URL that phones will not load images from.
  static func publicURLWarnings(_ url: PublicURL) -> [String] {
    var reasons: [String] = []
    if !url.isHTTPS { reasons.append("iOS loads Live Activity images over https only") }
    if let why = PublicHost.whyNotPublic(url.host) {
      reasons.append("\(why), not reachable from the internet")
    }
    guard !reasons.isEmpty else { return [] }
    return [
      "ARTWORK_PUBLIC_URL: phones will not load images from \(url.text): "
        + reasons.joined(separator: "; ")
    ]
  }

  /// A problem listing `ARTWORK_*` variables that no setting reads (typos, removed settings).
  static func checkUnknownKeys(_ reader: inout ConfigReader) {
    let known = Set(documentation.map(\.key))
    let unknown = reader.environment.keys.filter { $0.hasPrefix("ARTWORK_") && !known.contains($0) }
      .sorted()
    guard !unknown.isEmpty else { return }
    reader.problem(
      "unknown variable\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")): "
        + "known ARTWORK_* variables are \(known.sorted().joined(separator: ", "))")
  }
}
