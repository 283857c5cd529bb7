import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `artwork` executable run as a child process, for tests of the command line and of
/// `artwork serve` as operators run it (signals, exit status, logs on standard error).
///
/// Output goes to temporary files rather than pipes, so a chatty child never blocks on a full
/// pipe and a test can read what was written so far while the child still runs.
public final class ServiceProcess: Sendable {
  private let process: SendableProcess
  private let outputURL: URL
  private let errorURL: URL

  /// The built `artwork` executable: next to the test bundle (`swift test` builds every product
  /// into the same folder), else `.build/debug/artwork` under the repository.
  public static let executable: URL = {
    let besideBundle = Bundle.main.bundleURL.deletingLastPathComponent()
      .appendingPathComponent("artwork")
    if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
    return Repository.root.appendingPathComponent(".build/debug/artwork")
  }()

  /// Starts `artwork arguments...` with exactly `environment` (nothing inherited).
  public init(_ arguments: [String], environment: [String: String] = [:]) throws {
    let folder = FileManager.default.temporaryDirectory
    outputURL = folder.appendingPathComponent("artwork-out-\(UUID().uuidString)")
    errorURL = folder.appendingPathComponent("artwork-err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = arguments
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outputURL)
    process.standardError = try FileHandle(forWritingTo: errorURL)
    try process.run()
    self.process = SendableProcess(process)
  }

  deinit {
    if process.value.isRunning { process.value.terminate() }
    try? FileManager.default.removeItem(at: outputURL)
    try? FileManager.default.removeItem(at: errorURL)
  }

  /// The child's process id.
  public var pid: Int32 { process.value.processIdentifier }

  /// Sends `signal` (e.g. `SIGTERM`) to the child.
  public func send(signal: Int32) {
    _ = kill(process.value.processIdentifier, signal)
  }

  /// Everything the child wrote to standard output so far.
  public var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

  /// Everything the child wrote to standard error so far.
  public var errorOutput: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

  /// The exit status once the child exits, or nil if it still runs after `timeout` (a bound
  /// against hangs, not a speed assertion).
  public func exitStatus(within timeout: Duration = .seconds(60)) async -> Int32? {
    let deadline = ContinuousClock.now + timeout
    while process.value.isRunning {
      guard ContinuousClock.now < deadline else { return nil }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return process.value.terminationStatus
  }

  /// Runs `artwork arguments...` to completion: its exit status, standard output and error.
  public static func run(
    _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(120)
  ) async throws -> (status: Int32?, output: String, error: String) {
    let child = try ServiceProcess(arguments, environment: environment)
    let status = await child.exitStatus(within: timeout)
    return (status, child.output, child.errorOutput)
  }

  /// A loopback port that was free a moment ago: bound to port 0, read back, then closed.
  public static func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    precondition(fd >= 0, "socket failed")
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
      }
    }
    precondition(bound, "bind to 127.0.0.1:0 failed")
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

/// NOTE: `Process` is not `Sendable` on Linux; this wrapper is only read after `run()`, and
/// `isRunning`, `terminationStatus` and `terminate()` are safe to call from any thread.
private final class SendableProcess: @unchecked Sendable {
  let value: Process
  init(_ value: Process) { self.value = value }
}
