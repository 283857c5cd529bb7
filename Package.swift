// swift-tools-version: 6.0
// The Artwork service: phone-ready hosted artwork and ThumbHash for push relays.
// No Swift package dependencies: the C libraries come from Debian through system-library targets.
import PackageDescription

let package = Package(
  name: "Artwork",
  products: [
    .executable(name: "artwork", targets: ["artwork"]),
    .library(name: "ThumbHashCodec", targets: ["ThumbHashCodec"]),
  ],
  targets: [
    // C libraries, one door each. The module header holds the thin fixed-arity shims.
    .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
    // http-parser has no pkg-config file; its header and library are on the default paths.
    .systemLibrary(name: "CHTTPParser", providers: [.apt(["libhttp-parser-dev"])]),
    .systemLibrary(
      name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
    .systemLibrary(
      name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(
      name: "CSeccomp", pkgConfig: "libseccomp", providers: [.apt(["libseccomp-dev"])]),
    // The Linux calls around a worker process that the C library's Swift module lacks.
    .systemLibrary(name: "CProcess"),

    // One target per concern; each wraps at most one C library, imported `internal`, so no C
    // type crosses a target's API. docs/ARCHITECTURE.md draws the graph.
    .target(name: "ThumbHashCodec"),
    // Pixel arithmetic in pure Swift (linear-light resampling, the attention decision). Always
    // optimised: in a debug build its per-pixel loops would be some 50x slower, and every test
    // that frames a picture runs them.
    .target(name: "Pixels", swiftSettings: [.unsafeFlags(["-O"])]),
    .target(name: "WebPDecoding", dependencies: ["CWebP", "ArtworkCore"]),
    .target(name: "JPEGDecoding", dependencies: ["CJPEG", "ArtworkCore"]),
    .target(name: "JPEGEncoding", dependencies: ["CJPEG"]),
    // PNG metadata within bounds before a decoder sees it (text dropped, the ICC profile's
    // inflated size counted by zlib).
    .target(name: "PNGMetadata", dependencies: ["CZlib", "ArtworkCore"]),
    // The server's loops. In a release build, without the dynamic exclusivity checks: they
    // were a sixth of the loop's own CPU per hosted GET (BENCHMARKS.md, issue 30). Debug
    // builds (every test) and fuzz builds (`scripts/fuzz` sets ARTWORK_FUZZ_BUILD) keep them,
    // and trap on a violation there.
    .target(
      name: "HTTP", dependencies: ["CHTTPParser", "ArtworkCore"],
      swiftSettings: Context.environment["ARTWORK_FUZZ_BUILD"] == nil
        ? [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))] : []),
    .target(name: "ArtworkCore", dependencies: ["CCrypto"]),
    // JSON values in key order, written compactly, and strict RFC 8259 parsing.
    .target(name: "JSON", dependencies: ["ArtworkCore"]),
    // Structured JSON logs (standard error never blocks a caller) and the Prometheus registry.
    .target(name: "Observability", dependencies: ["JSON", "ArtworkCore"]),
    .target(name: "CurlClient", dependencies: ["CCurl", "ArtworkCore"]),
    .target(
      name: "Imaging",
      dependencies: [
        "CVips", "ArtworkCore", "ThumbHashCodec", "Pixels", "WebPDecoding", "JPEGDecoding",
        "JPEGEncoding",
        "PNGMetadata",
      ]),
    // A process locked down for good: resource limits and a seccomp filter.
    .target(name: "Containment", dependencies: ["CSeccomp"]),
    // Image work in worker processes, in three targets, so that the compiler keeps every
    // decoder out of the service's process. The wire between the two sides (messages, memory
    // files, the launch): no decoder.
    .target(name: "WorkerProtocol", dependencies: ["ArtworkCore", "CProcess"]),
    // The service's side (spawn, jobs, deadlines, failures): never Imaging, not even
    // transitively (`scripts/worker-wall` checks it in CI).
    .target(
      name: "WorkerHost",
      dependencies: ["WorkerProtocol", "ArtworkCore", "CProcess", "ThumbHashCodec"]),
    // The worker's side (its main loop, the jobs themselves, its lock-down); the warm-up
    // samples are compiled in.
    .target(
      name: "ImageWorker",
      dependencies: ["Imaging", "Containment", "WorkerProtocol", "ArtworkCore", "CProcess"],
      resources: [
        .embedInCode("WarmUp/jpeg-plain.jpg"), .embedInCode("WarmUp/jpeg-icc.jpg"),
        .embedInCode("WarmUp/jpeg-cmyk.jpg"), .embedInCode("WarmUp/png-rgba16.png"),
        .embedInCode("WarmUp/webp-lossy.webp"), .embedInCode("WarmUp/webp-alpha.webp"),
        .embedInCode("WarmUp/gif.gif"), .embedInCode("WarmUp/heic.heic"),
        .embedInCode("WarmUp/avif.avif"),
      ]),
    .target(name: "SafeFetch", dependencies: ["CurlClient", "ArtworkCore"]),
    .target(name: "Storage", dependencies: ["CurlClient", "ArtworkCore"]),
    .target(
      name: "ArtworkService",
      dependencies: [
        "HTTP", "ThumbHashCodec", "ArtworkCore", "WorkerHost", "SafeFetch", "Storage",
        "CurlClient", "JSON", "Observability",
      ],
      // The page, its assets and the OpenAPI document, compiled into the binary as byte arrays
      // (`PackageResources`): nothing to install beside the executable, no `Bundle.module`.
      resources: [
        .embedInCode("Resources/index.html"), .embedInCode("Resources/page.css"),
        .embedInCode("Resources/page.js"), .embedInCode("Resources/icon.svg"),
        .embedInCode("Resources/openapi.json"),
      ]),
    // The command line: no decoder either (`artwork version` asks a worker for libvips').
    .target(
      name: "ArtworkCLI",
      dependencies: [
        "ArtworkService", "WorkerHost", "ArtworkCore", "SafeFetch", "ThumbHashCodec", "JSON",
        "Observability",
      ]),
    // The one door to the decoders: `artwork __worker` runs `ImageWorker`'s main and never
    // returns to the command line.
    .executableTarget(
      name: "artwork", dependencies: ["ArtworkCLI", "ImageWorker", "WorkerProtocol"]),

    .executableTarget(
      name: "thumbhash-bench", dependencies: ["ThumbHashCodec"], path: "bench/thumbhash-bench"),
    // Loopback load generator and the in-process ceiling of the upload path (bench/*/run.sh).
    .executableTarget(
      name: "artwork-bench",
      dependencies: [
        "ArtworkService", "Imaging", "ImageWorker", "WorkerHost", "WorkerProtocol", "ArtworkCore",
      ],
      path: "bench/artwork-bench"),

    // The fuzz targets (`scripts/fuzz NAME SECONDS` builds them for libFuzzer; built normally,
    // they replay files, which is how the tests replay the corpus and every finding).
    .executableTarget(
      name: "artwork-fuzz",
      dependencies: ["ArtworkService", "HTTP", "ImageWorker", "Imaging", "ThumbHashCodec"],
      path: "Fuzz/artwork-fuzz"),

    // Helpers shared by the test targets: a raw loopback HTTP client, fixtures, server processes
    // (the service, SeaweedFS, the Python origin over libcurl).
    .target(
      name: "TestSupport", dependencies: ["CurlClient", "Storage"], path: "Tests/TestSupport",
      exclude: ["OriginFixtures", "ProviderFixtures"]),
    // A test target per library target, testing it through its own API (`Tests/<Target>Tests`).
    // The reference vectors are read from `Vectors/` by path (zlib inflates their PNGs).
    .testTarget(
      name: "ThumbHashCodecTests", dependencies: ["ThumbHashCodec", "CZlib"],
      exclude: ["Vectors"]),
    .testTarget(name: "PixelsTests", dependencies: ["Pixels"]),
    .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
    .testTarget(name: "ArtworkCoreTests", dependencies: ["ArtworkCore", "TestSupport"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON"]),
    .testTarget(name: "ObservabilityTests", dependencies: ["Observability", "JSON"]),
    .testTarget(
      name: "PNGMetadataTests", dependencies: ["PNGMetadata", "ArtworkCore", "TestSupport"]),
    .testTarget(
      name: "JPEGDecodingTests", dependencies: ["JPEGDecoding", "ArtworkCore", "TestSupport"]),
    .testTarget(
      name: "JPEGEncodingTests", dependencies: ["JPEGEncoding", "JPEGDecoding", "ArtworkCore"]),
    .testTarget(
      name: "WebPDecodingTests", dependencies: ["WebPDecoding", "ArtworkCore", "TestSupport"]),
    .testTarget(name: "CurlClientTests", dependencies: ["CurlClient", "TestSupport"]),
    .testTarget(name: "ContainmentTests", dependencies: ["Containment"]),
    .testTarget(
      name: "ImagingTests",
      dependencies: ["Imaging", "ArtworkCore", "JPEGDecoding", "TestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "WorkerProtocolTests", dependencies: ["WorkerProtocol", "ArtworkCore", "TestSupport"]),
    // The pool against scripted workers and the built `artwork`'s: no Imaging here either.
    .testTarget(
      name: "WorkerHostTests",
      dependencies: ["WorkerHost", "WorkerProtocol", "ArtworkCore", "TestSupport"]),
    .testTarget(
      name: "ImageWorkerTests",
      dependencies: [
        "ImageWorker", "WorkerHost", "WorkerProtocol", "Imaging", "ArtworkCore", "TestSupport",
      ]),
    .testTarget(
      name: "SafeFetchTests",
      dependencies: ["SafeFetch", "CurlClient", "ArtworkCore", "TestSupport"]),
    .testTarget(
      name: "StorageTests", dependencies: ["Storage", "CurlClient", "ArtworkCore", "TestSupport"]),
    .testTarget(
      name: "ArtworkServiceTests",
      dependencies: [
        "ArtworkService", "ArtworkCore", "Storage", "SafeFetch", "HTTP", "JSON", "Observability",
        "TestSupport",
      ]),
    .testTarget(name: "ArtworkCLITests", dependencies: ["ArtworkCLI", "TestSupport"]),
    // The service as its users meet it: the binary started for real, its clients, replicas on
    // shared S3, the page in Chromium, the contract under schemathesis, the fuzz findings.
    .testTarget(
      name: "ServiceTests",
      dependencies: [
        "ArtworkService", "ArtworkCLI", "ArtworkCore", "CurlClient", "Imaging", "WorkerHost",
        "SafeFetch", "Storage", "HTTP", "Observability", "TestSupport",
      ],
      exclude: [
        "Browser/Fixtures", "Contract/Fixtures", "Deployment/Fixtures", "HostedImages/Fixtures",
        "Service/Fixtures", "URLSources/Fixtures", "Workers/Fixtures",
      ]),
  ]
)
