import ArtworkCore
import Observability

extension ServiceConfig {
  /// The hosted URLs of stored objects, under `publicURL`.
  var hostedURLs: HostedURLs { HostedURLs(publicURL: publicURL) }

  /// The effective settings as log fields for the start-up line. Secrets are never included:
  /// tokens and S3 keys appear as counts or presence only.
  public var summary: [String: LogValue] {
    var fields: [String: LogValue] = [
      "listen": .string(listen.description),
      "public_url": .string(publicURL),
      "api_tokens": .int(apiTokens.count + fileTokens.count),
      "api_rate_per_minute": .int(apiRate),
      "allow_anonymous": .bool(allowAnonymous),
      "max_source_bytes": .int(maxSourceBytes),
      "max_pixels": .int(maxPixels),
      "workers": .int(workers),
      "queue": .int(queueLimit),
      "fetch_timeout_ms": .int(Self.milliseconds(fetchTimeout)),
      "private_sources": .string(privateSources.joined(separator: ",")),
      "trusted_proxies": .string(trustedProxies.description),
      "client_networks": .string("/\(clientNetworks.v4Prefix), /\(clientNetworks.v6Prefix)"),
      "source_ttl_s": .int(Int(sourceTTL.components.seconds)),
      "failure_ttl_s": .int(Int(failureTTL.components.seconds)),
      "retention_s": .int(retention.map { Int($0.components.seconds) } ?? 0),
      "shutdown_grace_ms": .int(Self.milliseconds(shutdownGrace)),
      "max_connections": .int(maxConnections),
      "image_cache_bytes": .int(imageCacheBytes),
      "ui": .bool(ui),
      "log_level": .string(logLevel.rawValue),
    ]
    if let caFile { fields["ca_file"] = .string(caFile) }
    if let apiTokensFile { fields["api_tokens_file"] = .string(apiTokensFile) }
    fields["storage"] = .string(storageDescription)
    switch storage {
    case .fileSystem:
      fields["min_free_bytes"] = .int(minFreeBytes)
    case .s3:
      fields["s3_region"] = .string(s3.region)
      fields["s3_virtual_hosted"] = .bool(s3.virtualHosted)
    }
    return fields
  }

  /// Where artwork is stored, in words: `filesystem ./data`, `s3://bucket/prefix at https://...`.
  public var storageDescription: String {
    switch storage {
    case .fileSystem(let directory):
      return "filesystem \(directory)"
    case .s3(let bucket, let prefix):
      let location = prefix.isEmpty ? "s3://\(bucket)" : "s3://\(bucket)/\(prefix)"
      return "\(location) at \(s3.endpoint)"
    }
  }

  static func milliseconds(_ duration: Duration) -> Int {
    Int(duration.wholeMilliseconds)
  }
}
