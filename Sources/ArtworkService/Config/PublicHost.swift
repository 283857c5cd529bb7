import ArtworkCore
import SafeFetch

/// A start-up sanity check of the host in `ARTWORK_PUBLIC_URL`: would a phone on the open
/// internet reach it? Only a warning source; the fetcher's address policy is the real gate for
/// sources and is stricter (it checks resolved addresses).
enum PublicHost {
  /// Nil when `host` looks publicly reachable; otherwise why a phone would not reach it.
  /// No name lookup happens here (start-up must not depend on DNS).
  static func whyNotPublic(_ host: String) -> String? {
    let name = host.lowercased()
    // An address is judged by the fetcher's own policy: the one table of special-purpose ranges.
    if let address = IPAddress(parsing: name) {
      let verdict = AddressPolicy.classify(address)
      return verdict.isAllowed ? nil : verdict.description
    }
    if name == "localhost" || name.hasSuffix(".localhost") {
      return "\(host) names this machine"
    }
    for suffix in [".local", ".lan", ".home", ".internal", ".home.arpa", ".test", ".invalid"]
    where name.hasSuffix(suffix) {
      return "\(host) is a local network name (\(suffix)) that the internet cannot resolve"
    }
    if name.hasSuffix(".ts.net") {
      return "\(host) is a Tailscale name that resolves to a private 100.64.0.0/10 address"
    }
    if !name.contains(".") {
      return "\(host) is a single-label name that only a local network resolves"
    }
    return nil
  }
}
