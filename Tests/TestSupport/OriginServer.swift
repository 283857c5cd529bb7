import CurlClient
import Foundation

/// The Python origin (Fixtures/origin.py) as a child process on loopback ephemeral ports.
/// Each test starts its own, so connection counters are per test. It exits when this object
/// goes (stdin closes, and it is terminated).
public final class OriginServer: @unchecked Sendable {
  // @unchecked: every stored property is immutable after init; Process is only terminated once.
  public let http: Int
  public let https: Int
  public let http6: Int?
  public let control: Int
  private let process: Process
  private let input: Pipe

  public static let fixtures = Repository.root
    .appendingPathComponent("Tests/TestSupport/OriginFixtures")

  /// Port of the listener on `extra` (an address the isolated-network test adds to `lo`).
  public let extra: Int?

  /// - Parameter extra: another address to serve plain http on; only ever an address of `lo` in
  ///   an isolated network namespace (see `IsolatedNetworkTests`).
  public init(extra: String? = nil) throws {
    Curl.globalInit()
    let certificates = try TestCertificates.shared.get()
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      [
        "python3", Self.fixtures.appendingPathComponent("origin.py").path,
        "--cert", certificates.appendingPathComponent("server.pem").path,
        "--key", certificates.appendingPathComponent("server-key.pem").path,
      ] + (extra.map { ["--extra", $0] } ?? [])
    input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    var line = Data()
    while !line.contains(0x0A) {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { throw OriginError.noPorts }
      line.append(chunk)
    }
    let ports = try JSONSerialization.jsonObject(with: line) as? [String: Any] ?? [:]
    guard let http = ports["http"] as? Int, let https = ports["https"] as? Int,
      let control = ports["control"] as? Int
    else { throw OriginError.noPorts }
    self.http = http
    self.https = https
    self.http6 = ports["http6"] as? Int
    self.control = control
    self.extra = ports["extra"] as? Int
  }

  /// Starts an origin without holding a Swift concurrency thread while Python starts: on a
  /// 2-core machine a blocked cooperative thread stalls every other test running in parallel.
  public static func start(extra: String? = nil) async throws -> OriginServer {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(with: Result { try OriginServer(extra: extra) })
      }
    }
  }

  deinit {
    try? input.fileHandleForWriting.close()
    process.terminate()
    process.waitUntilExit()
  }

  /// Connections accepted per listener ("http", "https", "http6") and requests per path.
  public func counts() throws -> (accepts: [String: Int], requests: [String: Int]) {
    let body = try get(port: control, "/counts")
    let json = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
    return (
      json["accepts"] as? [String: Int] ?? [:], json["requests"] as? [String: Int] ?? [:]
    )
  }

  /// The body of `GET target` on one of the origin's loopback listeners.
  public func get(port: Int, _ target: String) throws -> [UInt8] {
    let easy = CurlEasy()
    easy.set(.url, "http://127.0.0.1:\(port)\(target)")
    var body: [UInt8] = []
    easy.onBody = {
      body += $0
      return true
    }
    let status = easy.perform()
    guard status.isOK else { throw OriginError.control(status.description) }
    return body
  }

  /// Connections accepted by every origin listener (the control port excluded).
  public func totalAccepts() throws -> Int {
    try counts().accepts.filter { $0.key != "control" }.values.reduce(0, +)
  }

  /// Why an origin could not be started or asked.
  public enum OriginError: Error {
    case noPorts
    case control(String)
  }
}

/// A throwaway CA and server certificate (Fixtures/make-certs.sh), made once per test run.
public enum TestCertificates {
  /// The directory holding the CA and the server's certificate.
  public static let shared: Result<URL, any Error> = Result {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("artwork-fetch-certs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      OriginServer.fixtures.appendingPathComponent("make-certs.sh").path, directory.path,
    ]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw OriginServer.OriginError.noPorts }
    return directory
  }

  /// The CA file to trust.
  public static var caFile: String {
    (try? shared.get())!.appendingPathComponent("ca.pem").path
  }
}
