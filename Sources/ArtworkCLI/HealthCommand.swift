import ArtworkService

/// `artwork health [--url URL]`: exit 0 when `/healthz` answers 200, 1 otherwise, with one line
/// saying why. Without `--url` it asks the address in `ARTWORK_LISTEN`, as `artwork serve` would
/// bind it (an all-interfaces address asked on loopback).
enum HealthCommand: Subcommand {
  static let name = "health"
  static let synopsis = "health [--url URL]"
  static let summary = "Exit 0 if the running service answers /healthz with 200"
  static let valued: Set<String> = ["--url"]
  static let help = """
    artwork health [--url URL]

    Asks a running service for GET /healthz over a plain TCP connection, within 3 seconds.
    Without --url it asks the address in ARTWORK_LISTEN (default 127.0.0.1:8080), where
    0.0.0.0 is asked on 127.0.0.1 and [::] on [::1]. --url http://HOST[:PORT][/PATH] asks
    another address (the path defaults to /healthz).

    Exit status: 0 when the answer is 200; 1 otherwise, with one line on standard error saying
    why (connection refused, status N, no answer within 3 s); 2 for a usage error.

    """

  static func run(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError)
    -> Int32
  {
    guard parsed.operands.isEmpty else { throw unexpected(parsed.operands[0]) }
    let probe =
      if let url = parsed["--url"] {
        try probe(url: url)
      } else {
        try probe(listen: environment["ARTWORK_LISTEN"] ?? "127.0.0.1:8080")
      }
    let target =
      "http://\(probe.host.contains(":") ? "[\(probe.host)]" : probe.host):\(probe.port)\(probe.path)"
    do {
      let status = try probe.status()
      guard status == 200 else {
        Console.printError("artwork health: \(target): status \(status)")
        return 1
      }
      Console.printOut("artwork health: \(target): status 200\n")
      return 0
    } catch {
      Console.printError("artwork health: \(target): \(error.reason)")
      return 1
    }
  }

  /// The probe of `/healthz` where `serve` listens with `ARTWORK_LISTEN=listen`.
  private static func probe(listen: String) throws(UsageError) -> HealthProbe {
    guard let address = ListenAddress(parsing: listen), address.port != 0 else {
      throw UsageError(
        "health", "ARTWORK_LISTEN=\"\(listen)\" is not host:port or [IPv6]:port with a port")
    }
    let host =
      switch address.host {
      case "0.0.0.0": "127.0.0.1"
      case "::": "::1"
      default: address.host
      }
    return HealthProbe(host: host, port: address.port, path: "/healthz")
  }

  /// The probe of `url` (`http://host[:port][/path]`; the path defaults to `/healthz`).
  private static func probe(url: String) throws(UsageError) -> HealthProbe {
    let invalid = UsageError("health", "--url \(url) is not an http://host[:port][/path] URL")
    guard url.lowercased().hasPrefix("http://") else { throw invalid }
    let rest = url.dropFirst("http://".count)
    let authority = rest.prefix { $0 != "/" && $0 != "?" }
    let target = rest.dropFirst(authority.count)
    var host = Substring(authority)
    var port = 80
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { throw invalid }
      host = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { throw invalid }
        port = number
      }
    } else if let colon = authority.lastIndex(of: ":") {
      host = authority[..<colon]
      guard let number = Int(authority[authority.index(after: colon)...]) else { throw invalid }
      port = number
    }
    guard !host.isEmpty, (1...65535).contains(port) else { throw invalid }
    return HealthProbe(
      host: String(host), port: port, path: target.isEmpty ? "/healthz" : String(target))
  }
}
