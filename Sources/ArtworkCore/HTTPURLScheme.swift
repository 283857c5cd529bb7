/// Splits an absolute `http://` or `https://` URL (scheme matched case-insensitively) into its
/// lowercase scheme and everything after `://`; nil for any other scheme. Shared by the URLs of
/// the configuration (public URL, S3 endpoint).
public func splitHTTPScheme(_ raw: String) -> (scheme: String, rest: Substring)? {
  let lower = raw.lowercased()
  let scheme: String
  if lower.hasPrefix("https://") {
    scheme = "https"
  } else if lower.hasPrefix("http://") {
    scheme = "http"
  } else {
    return nil
  }
  return (scheme, raw.dropFirst(scheme.count + 3))
}
