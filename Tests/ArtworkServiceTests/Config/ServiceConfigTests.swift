import Foundation
import Testing

@testable import ArtworkCore
@testable import ArtworkService

@Suite struct ServiceConfigTests {
  @Test func everyDefault() throws {
    let config = try ServiceConfig(environment: [:], processorCount: 3, descriptors: 1024)
    #expect(config.listen == ListenAddress(host: "127.0.0.1", port: 8080))
    #expect(config.listen.isLoopback)
    #expect(config.publicURL == "http://127.0.0.1:8080")
    #expect(config.storage == .fileSystem(directory: "./data"))
    #expect(config.s3.endpoint == "https://s3.us-east-1.amazonaws.com")
    #expect(config.s3.region == "us-east-1")
    #expect(config.s3.accessKeyID.isEmpty && config.s3.secretAccessKey.isEmpty)
    #expect(config.s3.virtualHosted == false)
    #expect(config.apiTokens.isEmpty)
    #expect(config.allowAnonymous == false)
    #expect(config.maxSourceBytes == 2_000_000)
    #expect(config.maxPixels == 40_000_000)
    #expect(config.workers == 3)
    #expect(config.queueLimit == 16)
    // Upload bodies of what 3 workers and 16 queued jobs can take, plus 16 MiB.
    #expect(config.bodyMemory == 19 * 2_065_536 + (16 << 20))
    #expect(config.fetchTimeout == .seconds(8))
    #expect(config.caFile == nil)
    #expect(config.privateSources.isEmpty)
    #expect(config.sourceTTL == .seconds(600))
    #expect(config.failureTTL == .seconds(30))
    #expect(config.retention == .seconds(30 * 86400))
    #expect(config.shutdownGrace == .seconds(8))
    #expect(config.maxConnections == 512)
    #expect(config.logLevel == .info)
    // The default public URL is plain http on loopback: fine for a try-out, but say so.
    #expect(config.warnings.count == 1)
    #expect(
      config.warnings.first?.contains("phones will not load images from http://127.0.0.1:8080")
        == true)
  }

  @Test func everyKeyReadIsDocumentedAndEveryDocumentedKeyIsRead() throws {
    let config = try ServiceConfig(environment: [:])
    let read = Set(config.keysRead.filter { $0.hasPrefix("ARTWORK_") })
    let documented = ServiceConfig.documentation.map(\.key)
    #expect(read == Set(documented))
    #expect(Set(documented).count == documented.count, "a key is documented twice")
    // The only other variables read are the AWS fallbacks, mentioned in their keys' meaning.
    #expect(
      Set(config.keysRead.filter { !$0.hasPrefix("ARTWORK_") })
        == ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"])
    let table = ServiceConfig.markdownTable()
    for key in documented { #expect(table.contains("| `\(key)` |")) }
  }

  @Test func namesABadPrivateSourceOnce() {
    #expect {
      _ = try ServiceConfig(environment: ["ARTWORK_PRIVATE_SOURCES": "10.0.0.0/33,media lan"])
    } throws: { error in
      guard let error = error as? ConfigError else { return false }
      #expect(error.problems.count == 2, "\(error.problems)")
      #expect(
        error.problems.allSatisfy {
          $0.hasPrefix("ARTWORK_PRIVATE_SOURCES: ") && !$0.dropFirst(25).contains("ARTWORK_")
        }, "\(error.problems)")
      return true
    }
  }

  @Test func reportsEveryProblemAtOnce() {
    let environment = [
      "ARTWORK_LISTEN": "localhost",
      "ARTWORK_QUEUE": "-1",
      "ARTWORK_LOG_LEVEL": "verbose",
      "ARTWORK_FETCH_TIMEOUT": "8 seconds",
      "ARTWORK_WORKRES": "4",
    ]
    #expect {
      _ = try ServiceConfig(environment: environment)
    } throws: { error in
      guard let error = error as? ConfigError else { return false }
      #expect(error.problems.count == 5)
      #expect(error.problems.contains { $0.contains("ARTWORK_LISTEN=\"localhost\"") })
      #expect(
        error.problems.contains {
          $0.contains("ARTWORK_QUEUE=\"-1\"") && $0.contains("0 to 100000")
        })
      #expect(
        error.problems.contains {
          $0.contains("ARTWORK_LOG_LEVEL=\"verbose\"") && $0.contains("debug, info, warn or error")
        })
      #expect(error.problems.contains { $0.contains("ARTWORK_FETCH_TIMEOUT=\"8 seconds\"") })
      #expect(error.problems.contains { $0.contains("unknown variable ARTWORK_WORKRES") })
      #expect(error.description.hasPrefix("invalid configuration (5 problems):"))
      return true
    }
  }

  @Test(arguments: [
    ("ARTWORK_LISTEN", "127.0.0.1"),
    ("ARTWORK_LISTEN", "::1:8080"),
    ("ARTWORK_LISTEN", "[::1]8080"),
    ("ARTWORK_LISTEN", "127.0.0.1:65536"),
    ("ARTWORK_LISTEN", "example.com:80"),
    ("ARTWORK_LISTEN", "127.0.0.1:-1"),
    ("ARTWORK_PUBLIC_URL", "ftp://example.com"),
    ("ARTWORK_PUBLIC_URL", "https://example.com/?a=1"),
    ("ARTWORK_PUBLIC_URL", "https://example.com/#top"),
    ("ARTWORK_PUBLIC_URL", "https://user@example.com"),
    ("ARTWORK_PUBLIC_URL", "https://"),
    ("ARTWORK_PUBLIC_URL", "https://example.com:0"),
    ("ARTWORK_PUBLIC_URL", "example.com"),
    ("ARTWORK_STORAGE", "s3://"),
    ("ARTWORK_STORAGE", "s3://Upper_Case/x"),
    ("ARTWORK_STORAGE", "file:///var/data"),
    ("ARTWORK_S3_ENDPOINT", "minio:9000"),
    ("ARTWORK_S3_REGION", "US East"),
    ("ARTWORK_S3_VIRTUAL_HOSTED", "yes"),
    ("ARTWORK_ALLOW_ANONYMOUS", "2"),
    ("ARTWORK_MAX_SOURCE_BYTES", "0"),
    ("ARTWORK_MAX_SOURCE_BYTES", "50000001"),
    ("ARTWORK_MAX_SOURCE_BYTES", "2MB"),
    ("ARTWORK_MAX_PIXELS", "1e6"),
    ("ARTWORK_WORKERS", "0"),
    ("ARTWORK_QUEUE", "lots"),
    ("ARTWORK_FETCH_TIMEOUT", "0"),
    ("ARTWORK_FETCH_TIMEOUT", "1.5s"),
    ("ARTWORK_FETCH_TIMEOUT", "6m"),
    ("ARTWORK_FETCH_TIMEOUT", "8"),
    ("ARTWORK_FETCH_TIMEOUT", "30s1m"),
    ("ARTWORK_FETCH_TIMEOUT", "1s1s"),
    ("ARTWORK_FETCH_TIMEOUT", "301s"),
    ("ARTWORK_CA_FILE", "/nonexistent/ca.pem"),
    ("ARTWORK_CA_FILE", "/"),
    ("ARTWORK_SOURCE_TTL", "10d"),
    ("ARTWORK_SOURCE_TTL", "10x"),
    ("ARTWORK_FAILURE_TTL", "25h"),
    ("ARTWORK_RETENTION", "30"),
    ("ARTWORK_RETENTION", "1h1d"),
    ("ARTWORK_RETENTION", "d"),
    ("ARTWORK_SHUTDOWN_GRACE", "1h"),
    ("ARTWORK_MAX_CONNECTIONS", "0"),
    ("ARTWORK_LOG_LEVEL", "trace"),
  ])
  func refusesBadValue(key: String, value: String) {
    #expect {
      _ = try ServiceConfig(environment: [key: value])
    } throws: { error in
      guard let error = error as? ConfigError, error.problems.count == 1,
        let problem = error.problems.first
      else { return false }
      return problem.contains("\(key)=\"\(value)\": expected")
    }
  }

  @Test(arguments: [
    ("8s", Duration.seconds(8)), ("8S", .seconds(8)), ("1500ms", .milliseconds(1500)),
    ("300s", .seconds(300)), ("1ms", .milliseconds(1)), ("1m", .seconds(60)),
    ("1m30s", .seconds(90)), ("2s500ms", .milliseconds(2500)),
  ])
  func fetchTimeoutForms(text: String, expected: Duration) throws {
    let config = try ServiceConfig(environment: ["ARTWORK_FETCH_TIMEOUT": text])
    #expect(config.fetchTimeout == expected)
  }

  static let durationKeys = ServiceConfig.documentation.map(\.key).filter {
    $0.hasSuffix("_TIMEOUT") || $0.hasSuffix("_TTL") || $0.hasSuffix("_GRACE")
      || $0.hasSuffix("_INTERVAL") || $0 == "ARTWORK_RETENTION"
  }

  /// Every duration variable reads the same syntax: each unit, chained, and no bare number.
  @Test func oneDurationSyntax() throws {
    #expect(Self.durationKeys.count == 12, "\(Self.durationKeys)")
    for key in Self.durationKeys {
      for (text, expected) in [
        ("1500ms", Duration.milliseconds(1500)), ("45s", .seconds(45)), ("1m", .seconds(60)),
        ("2m30s", .seconds(150)),
      ] {
        let config = try ServiceConfig(environment: [key: text])
        #expect(config.keysRead.contains(key))
        #expect(Self.durationValue(config, key) == expected, "\(key)=\(text)")
      }
      #expect(throws: ConfigError.self, "\(key)=30") {
        try ServiceConfig(environment: [key: "30"])
      }
    }
    let days = try ServiceConfig(environment: [
      "ARTWORK_SOURCE_TTL": "1d", "ARTWORK_FAILURE_TTL": "1h", "ARTWORK_RETENTION": "30m",
      "ARTWORK_FETCH_TIMEOUT": "1m",
    ])
    #expect(days.sourceTTL == .seconds(86400))
    #expect(days.failureTTL == .seconds(3600))
    #expect(days.retention == .seconds(1800))
    #expect(days.fetchTimeout == .seconds(60))
  }

  static func durationValue(_ config: ServiceConfig, _ key: String) -> Duration? {
    switch key {
    case "ARTWORK_FETCH_TIMEOUT": config.fetchTimeout
    case "ARTWORK_SOURCE_TTL": config.sourceTTL
    case "ARTWORK_FAILURE_TTL": config.failureTTL
    case "ARTWORK_RETENTION": config.retention
    case "ARTWORK_SHUTDOWN_GRACE": config.shutdownGrace
    case "ARTWORK_HEAD_TIMEOUT": config.headTimeout
    case "ARTWORK_IDLE_TIMEOUT": config.idleTimeout
    case "ARTWORK_LINGER_TIMEOUT": config.lingerTimeout
    case "ARTWORK_HANDLER_TIMEOUT": config.handlerTimeout
    case "ARTWORK_WORKER_TIMEOUT": config.workerTimeout
    case "ARTWORK_READINESS_INTERVAL": config.readinessInterval
    case "ARTWORK_READINESS_TIMEOUT": config.readinessTimeout
    default: nil
    }
  }

  @Test func cacheAndRetentionDurations() throws {
    let config = try ServiceConfig(environment: [
      "ARTWORK_SOURCE_TTL": "10m", "ARTWORK_FAILURE_TTL": "0", "ARTWORK_RETENTION": "12h",
      "ARTWORK_SHUTDOWN_GRACE": "2500ms",
    ])
    #expect(config.sourceTTL == .seconds(600))
    #expect(config.failureTTL == .zero)
    #expect(config.retention == .seconds(12 * 3600))
    #expect(config.shutdownGrace == .milliseconds(2500))
    let forever = try ServiceConfig(environment: ["ARTWORK_RETENTION": "0"])
    #expect(forever.retention == nil)
    let days = try ServiceConfig(environment: [
      "ARTWORK_RETENTION": "7d", "ARTWORK_SOURCE_TTL": "2h",
    ])
    #expect(days.retention == .seconds(7 * 86400))
    #expect(days.sourceTTL == .seconds(7200))
  }

  @Test(arguments: [
    ("127.0.0.1:0", "127.0.0.1", 0, true),
    ("localhost:9000", "127.0.0.1", 9000, true),
    ("127.1.2.3:80", "127.1.2.3", 80, true),
    ("[::1]:8080", "::1", 8080, true),
    ("[::]:8080", "::", 8080, false),
    ("0.0.0.0:80", "0.0.0.0", 80, false),
    ("192.168.1.5:8080", "192.168.1.5", 8080, false),
  ])
  func listenAddresses(text: String, host: String, port: Int, loopback: Bool) throws {
    let config = try ServiceConfig(environment: [
      "ARTWORK_LISTEN": text, "ARTWORK_ALLOW_ANONYMOUS": "1",
    ])
    #expect(config.listen.host == host)
    #expect(config.listen.port == port)
    #expect(config.listen.isLoopback == loopback)
  }

  @Test func networkListenNeedsTokensOrExplicitAnonymous() throws {
    #expect {
      _ = try ServiceConfig(environment: ["ARTWORK_LISTEN": "0.0.0.0:8080"])
    } throws: { error in
      (error as? ConfigError)?.problems.first?.contains("ARTWORK_API_TOKENS is empty") == true
    }
    let anonymous = try ServiceConfig(environment: [
      "ARTWORK_LISTEN": "0.0.0.0:8080", "ARTWORK_ALLOW_ANONYMOUS": "true",
    ])
    #expect(anonymous.allowAnonymous)
    #expect(anonymous.warnings.contains { $0.hasPrefix("ARTWORK_ALLOW_ANONYMOUS: anyone") })
    let tokens = try ServiceConfig(environment: [
      "ARTWORK_LISTEN": "[::]:8080",
      "ARTWORK_API_TOKENS": " first-token-abcdefgh, ,second-token-abcdefgh ,",
    ])
    #expect(tokens.apiTokens.map(\.secret) == ["first-token-abcdefgh", "second-token-abcdefgh"])
    #expect(tokens.warnings.allSatisfy { !$0.contains("ARTWORK_API_TOKENS") })
  }

  @Test func tokensAreCheckedWithoutShowingThem() throws {
    #expect {
      _ = try ServiceConfig(environment: ["ARTWORK_API_TOKENS": "good-token-123456,bad token"])
    } throws: { error in
      guard let problem = (error as? ConfigError)?.problems.first else { return false }
      return problem.contains("token 2 of 2") && !problem.contains("bad token")
        && problem.contains("value hidden")
    }
    #expect {
      _ = try ServiceConfig(environment: ["ARTWORK_API_TOKENS": "abc"])
    } throws: { error in
      guard let problems = (error as? ConfigError)?.problems else { return false }
      return problems.count == 1 && problems[0].contains("shorter than 16 characters")
        && !problems[0].contains("abc")
    }
  }

  @Test(arguments: [
    ("https://img.example.com/", "https://img.example.com", false),
    ("HTTPS://Img.Example.com/artwork//", "https://img.example.com/artwork", false),
    ("https://img.example.com:8443/a", "https://img.example.com:8443/a", false),
    ("http://img.example.com", "http://img.example.com", true),
    ("https://192.168.1.10", "https://192.168.1.10", true),
    ("https://10.0.0.1:8443", "https://10.0.0.1:8443", true),
    ("https://100.100.1.1", "https://100.100.1.1", true),
    ("https://[::1]:8443", "https://[::1]:8443", true),
    ("https://[fd00::1]", "https://[fd00::1]", true),
    ("https://[2606:4700::1111]", "https://[2606:4700::1111]", false),
    ("https://nas.local", "https://nas.local", true),
    ("https://localhost", "https://localhost", true),
    ("https://media", "https://media", true),
    ("https://box.tail1234.ts.net", "https://box.tail1234.ts.net", true),
    ("https://1.1.1.1", "https://1.1.1.1", false),
  ])
  func publicURL(raw: String, canonical: String, warns: Bool) throws {
    let config = try ServiceConfig(environment: ["ARTWORK_PUBLIC_URL": raw])
    #expect(config.publicURL == canonical)
    #expect(config.warnings.isEmpty == !warns)
    if warns {
      #expect(
        config.warnings.first?.hasPrefix(
          "ARTWORK_PUBLIC_URL: phones will not load images from \(canonical): ") == true)
    }
  }

  @Test func s3StorageAndCredentialFallback() throws {
    let config = try ServiceConfig(environment: [
      "ARTWORK_STORAGE": "s3://artwork-bucket/some/prefix/",
      "ARTWORK_S3_ENDPOINT": "http://127.0.0.1:8333/",
      "ARTWORK_S3_REGION": "eu-west-3",
      "ARTWORK_S3_VIRTUAL_HOSTED": "1",
      "AWS_ACCESS_KEY_ID": "AKIAEXAMPLE",
      "AWS_SECRET_ACCESS_KEY": "aws-secret",
      "ARTWORK_S3_SECRET_ACCESS_KEY": "artwork-secret",
    ])
    #expect(config.storage == .s3(bucket: "artwork-bucket", prefix: "some/prefix"))
    #expect(config.s3.endpoint == "http://127.0.0.1:8333")
    #expect(config.s3.region == "eu-west-3")
    #expect(config.s3.virtualHosted)
    #expect(config.s3.accessKeyID == "AKIAEXAMPLE")
    #expect(config.s3.secretAccessKey == "artwork-secret")
    let bare = try ServiceConfig(environment: [
      "ARTWORK_STORAGE": "s3://bucket", "ARTWORK_S3_REGION": "eu-west-3",
      "ARTWORK_S3_ACCESS_KEY_ID": "k", "ARTWORK_S3_SECRET_ACCESS_KEY": "s",
    ])
    #expect(bare.storage == .s3(bucket: "bucket", prefix: ""))
    #expect(bare.s3.endpoint == "https://s3.eu-west-3.amazonaws.com")
  }

  @Test func s3WithoutCredentialsIsAProblem() {
    #expect {
      _ = try ServiceConfig(environment: ["ARTWORK_STORAGE": "s3://bucket"])
    } throws: { error in
      (error as? ConfigError)?.problems.first?.contains("needs credentials") == true
    }
  }

  @Test func otherSettings() throws {
    let ca = FileManager.default.temporaryDirectory.appendingPathComponent(
      "artwork-ca-\(UInt64.random(in: 0...UInt64.max)).pem")
    try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: ca)
    defer { try? FileManager.default.removeItem(at: ca) }
    let config = try ServiceConfig(environment: [
      "ARTWORK_STORAGE": "/var/lib/artwork",
      "ARTWORK_CA_FILE": ca.path,
      "ARTWORK_PRIVATE_SOURCES": " 192.168.1.0/24, media.lan ,,",
      "ARTWORK_MAX_SOURCE_BYTES": "50000000",
      "ARTWORK_MAX_PIXELS": "1000000",
      "ARTWORK_WORKERS": "4",
      "ARTWORK_QUEUE": "0",
      "ARTWORK_MAX_CONNECTIONS": "64",
      "ARTWORK_LOG_LEVEL": "DEBUG",
      "ARTWORK_API_TOKENS": "",
      "UNRELATED": "ignored",
    ])
    #expect(config.storage == .fileSystem(directory: "/var/lib/artwork"))
    #expect(config.caFile == ca.path)
    #expect(config.privateSources == ["192.168.1.0/24", "media.lan"])
    #expect(config.maxSourceBytes == 50_000_000)
    #expect(config.maxPixels == 1_000_000)
    #expect(config.workers == 4)
    #expect(config.queueLimit == 0)
    #expect(config.maxConnections == 64)
    #expect(config.logLevel == .debug)
    #expect(config.apiTokens.isEmpty)
  }
}

@Suite struct ServiceConfigSummaryTests {
  @Test func imageURLAndSummaryWithoutSecrets() throws {
    let config = try ServiceConfig(environment: [
      "ARTWORK_PUBLIC_URL": "https://img.example.com/artwork/",
      "ARTWORK_STORAGE": "s3://bucket/p",
      "ARTWORK_S3_ACCESS_KEY_ID": "AKIDSECRETVALUE",
      "ARTWORK_S3_SECRET_ACCESS_KEY": "very-secret-key",
      "ARTWORK_API_TOKENS": "token-one-abcdefghij,token-two-abcdefghij",
      "ARTWORK_FETCH_TIMEOUT": "1500ms",
    ])
    let key = ArtworkKey(id: ArtworkID(hex: String(repeating: "a", count: 64))!, format: .png)
    #expect(
      config.hostedURLs.url(for: key)
        == "https://img.example.com/artwork/v1/images/\(String(repeating: "a", count: 64)).png")
    let summary = config.summary
    #expect(summary["storage"] == "s3://bucket/p at https://s3.us-east-1.amazonaws.com")
    let local = try ServiceConfig(environment: [:])
    #expect(local.summary["storage"] == "filesystem ./data")
    #expect(local.storageDescription == "filesystem ./data")
    #expect(summary["api_tokens"] == 2)
    #expect(summary["fetch_timeout_ms"] == 1500)
    for value in summary.values {
      if case .string(let text) = value {
        #expect(!text.contains("SECRET") && !text.contains("secret") && !text.contains("token-"))
      }
    }
  }
}
