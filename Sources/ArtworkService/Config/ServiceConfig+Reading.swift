import ArtworkCore
import HTTP

extension ServiceConfig {
  /// Comma-separated entries, trimmed, empty entries dropped.
  static func list(_ text: String?) -> [String] {
    guard let text else { return [] }
    return text.split(separator: ",").map { HeaderSyntax.trimmed(String($0)) }
      .filter { !$0.isEmpty }
  }

  /// `ARTWORK_API_TOKENS`: comma-separated `name:token` pairs or bare tokens (named `token-N`
  /// by their position, from 1). Problems never quote a token.
  static func readTokens(_ reader: inout ConfigReader) -> [APIToken] {
    let entries = list(reader.text("ARTWORK_API_TOKENS"))
    var valid: [APIToken] = []
    for (index, entry) in entries.enumerated() {
      let position = "token \(index + 1) of \(entries.count)"
      switch APIToken.parse(entry, fallbackName: "token-\(index + 1)") {
      case .failure(let problem):
        reader.refuse("ARTWORK_API_TOKENS", entry, "\(position): \(problem.text)", secret: true)
      case .success(let token):
        valid.append(token)
      }
    }
    return valid
  }

  /// `ARTWORK_API_TOKENS_FILE`: the path, and the tokens it holds now (a file that cannot be
  /// read or has a bad line is a configuration error at start-up).
  static func readTokenFile(_ reader: inout ConfigReader) -> (path: String?, tokens: [APIToken]) {
    guard let path = reader.text("ARTWORK_API_TOKENS_FILE") else { return (nil, []) }
    switch APITokenFile.read(path) {
    case .success(let tokens):
      return (path, tokens)
    case .failure(let problems):
      for problem in problems.list {
        reader.problem("ARTWORK_API_TOKENS_FILE=\"\(path)\": \(problem)")
      }
      return (path, [])
    }
  }

  /// `ARTWORK_METRICS_TOKEN`: a token as `ARTWORK_API_TOKENS` takes them (never quoted).
  static func readMetricsToken(_ reader: inout ConfigReader) -> String? {
    guard let token = reader.text("ARTWORK_METRICS_TOKEN") else { return nil }
    if let problem = APIToken.problem(secret: token) {
      reader.problem("ARTWORK_METRICS_TOKEN: \(problem)")
      return nil
    }
    return token
  }

  /// `ARTWORK_ADMIN_TOKENS`: token names, never tokens (a name is checked as a name; a token
  /// pasted here by mistake is refused without being quoted). A name no token has yet is
  /// allowed: the token file may add it on a reload.
  static func readAdminTokens(_ reader: inout ConfigReader) -> [String] {
    list(reader.text("ARTWORK_ADMIN_TOKENS")).filter { name in
      guard let problem = APIToken.problem(name: name) else { return true }
      reader.problem("ARTWORK_ADMIN_TOKENS: \(problem) (list token names, not tokens)")
      return false
    }
  }

  /// `ARTWORK_SECRET_PARAMS`: names added to the default secret query parameters.
  static func readSecretParameters(_ reader: inout ConfigReader) -> SecretParameters {
    let names = list(reader.text("ARTWORK_SECRET_PARAMS"))
    var valid: [String] = []
    for name in names {
      // A query parameter name as written: visible ASCII without the query's own delimiters.
      guard name.utf8.allSatisfy({ (0x21...0x7E).contains($0) && !"&=#?".utf8.contains($0) })
      else {
        reader.refuse(
          "ARTWORK_SECRET_PARAMS", name, "expected query parameter names separated by commas")
        continue
      }
      valid.append(name)
    }
    return SecretParameters(adding: valid)
  }

  /// `ARTWORK_CORS_ORIGINS`: `*`, or origins (`https://app.example.com`, `http://localhost:3000`)
  /// separated by commas; empty lets no page on another origin call the API.
  static func readCrossOrigin(_ reader: inout ConfigReader) -> CrossOriginPolicy {
    let entries = list(reader.text("ARTWORK_CORS_ORIGINS"))
    if entries == ["*"] { return CrossOriginPolicy(origins: .any) }
    var origins: Set<String> = []
    for entry in entries {
      guard let origin = origin(entry) else {
        reader.refuse(
          "ARTWORK_CORS_ORIGINS", entry,
          "expected * alone, or origins like https://app.example.com (scheme, host and port "
            + "only) separated by commas")
        continue
      }
      origins.insert(origin)
    }
    return CrossOriginPolicy(origins: .only(origins))
  }

  /// `text` as a serialized origin (lower case, no default port, no path), or nil.
  static func origin(_ text: String) -> String? {
    guard let (scheme, authority) = splitHTTPScheme(text.lowercased()), !authority.isEmpty,
      authority.allSatisfy({
        $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0))
      })
    else { return nil }
    var host = String(authority)
    if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
      let port = authority[authority.index(after: colon)...]
      guard let number = Int(port), (1...65535).contains(number) else { return nil }
      host = String(authority[..<colon])
      let isDefault = (scheme == "https" && number == 443) || (scheme == "http" && number == 80)
      if !isDefault { host += ":\(number)" }
    }
    guard !host.isEmpty, !host.hasPrefix(":") else { return nil }
    return "\(scheme)://\(host)"
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
    for name in unknown {
      if let closest = closestKnown(to: name, among: known) {
        reader.problem("unknown variable \(name): did you mean \(closest)?")
      } else {
        reader.problem(
          "unknown variable \(name): no setting has this name (`artwork serve --help` lists them)")
      }
    }
  }

  /// The known name nearest to a mistyped `name` (by edits: a letter added, dropped, changed or
  /// two swapped), when it is near enough to be what was meant.
  static func closestKnown(to name: String, among known: Set<String>) -> String? {
    let typed = Array(name.uppercased().utf8)
    var best: (name: String, distance: Int)?
    for candidate in known.sorted() {
      let distance = editDistance(typed, Array(candidate.utf8))
      if distance < best?.distance ?? Int.max { best = (candidate, distance) }
    }
    guard let best else { return nil }
    // Past the shared `ARTWORK_`, a third of the rest may be wrong, and at least two letters.
    let allowed = max(2, (typed.count - "ARTWORK_".count) / 3)
    return best.distance <= allowed ? best.name : nil
  }

  /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
  /// neighbours each cost one.
  static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], before[j - 2] + 1)
        }
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
