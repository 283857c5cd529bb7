import ArtworkCore
import CurlClient
import Foundation

/// The certificates TLS verification trusts when an extra CA file is configured.
///
/// libcurl 7.88 has no "add a CA" option: `CURLOPT_CAINFO` *replaces* the default bundle file,
/// and `CURLOPT_CAINFO_BLOB` overrides `CURLOPT_CAINFO` (with the OpenSSL backend only
/// `CURLOPT_CAPATH`, a hashed directory, would still apply alongside, and whether one is compiled
/// in varies by build). So, once at start-up, this reads the system bundle libcurl was built with
/// (`CURLINFO_CAINFO`, /etc/ssl/certs/ca-certificates.crt on Debian) and the extra file, and hands
/// the concatenation to every handle as `CURLOPT_CAINFO_BLOB`: both are trusted whatever the build,
/// and no file is written.
struct TrustBundle: Sendable {
  /// PEM text of the system bundle followed by the extra file.
  let pem: [UInt8]

  /// Reads `caFile` and the system bundle. Throws a configuration error naming the file when it
  /// cannot be read or holds no PEM certificate.
  init(caFile: String, systemBundle: String? = Curl.defaultCABundlePath) throws(ArtworkError) {
    guard let extra = FileManager.default.contents(atPath: caFile) else {
      throw ArtworkError(.internal, "The CA file \(caFile) cannot be read.")
    }
    guard String(decoding: extra, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
      throw ArtworkError(.internal, "The CA file \(caFile) holds no PEM certificate.")
    }
    var pem: [UInt8] = []
    // A missing system bundle is not fatal: the extra CA alone is then what is trusted.
    if let systemBundle, let system = FileManager.default.contents(atPath: systemBundle) {
      pem.append(contentsOf: system)
      pem.append(0x0A)
    }
    pem.append(contentsOf: extra)
    self.pem = pem
  }
}
