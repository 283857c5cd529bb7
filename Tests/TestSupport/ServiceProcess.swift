import ArtworkCore
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The `artwork` executable run as a child process, for tests of the command line and of
/// `artwork serve` as operators run it (signals, exit status, logs on standard error).
///
/// Output goes to temporary files rather than pipes, so a chatty child never blocks on a full
/// pipe and a test can read what was written so far while the child still runs.
public final class ServiceProcess: Sendable {
  private let child: pid_t
  private let status = Mutex<Int32?>(nil)
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
  ///
  /// NOTE: the child gets standard input, output and error and no other descriptor. Test
  /// sockets are not close-on-exec; while children spawned with `Foundation.Process` (which passes
  /// them on) ran, other tests' loopback connections were closed early in full-module runs. The
  /// exact mechanism is not understood; closing everything else in the child made it go away.
  public convenience init(_ arguments: [String], environment: [String: String] = [:]) throws {
    try self.init(executable: Self.executable.path, arguments, environment: environment)
  }

  /// Starts `executable arguments...` (an absolute path) with exactly `environment`.
  public init(executable: String, _ arguments: [String], environment: [String: String] = [:])
    throws
  {
    let folder = FileManager.default.temporaryDirectory
    outputURL = folder.appendingPathComponent("artwork-out-\(UUID().uuidString)")
    errorURL = folder.appendingPathComponent("artwork-err-\(UUID().uuidString)")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let flags = O_WRONLY | O_CREAT | O_TRUNC
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputURL.path, flags, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errorURL.path, flags, 0o600)
    guard Self.addCloseFrom(&actions, 3) == 0 else {
      throw ServiceProcessError.spawnFailed(errno: EINVAL)
    }
    let argv = [executable] + arguments
    let envp = environment.map { "\($0.key)=\($0.value)" }
    var pid: pid_t = 0
    let result = withCStrings(argv) { argvPointers in
      withCStrings(envp) { envPointers in
        posix_spawn(&pid, executable, &actions, nil, argvPointers, envPointers)
      }
    }
    guard result == 0 else { throw ServiceProcessError.spawnFailed(errno: result) }
    child = pid
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which the Glibc module does not
  /// import: found at run time.
  private static let addCloseFrom:
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
      guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
        fatalError("glibc without posix_spawn_file_actions_addclosefrom_np")
      }
      return unsafeBitCast(
        symbol,
        to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)
          .self)
    }()

  deinit {
    if status.withLock({ $0 }) == nil {
      _ = kill(child, SIGKILL)
      var raw: Int32 = 0
      _ = waitpid(child, &raw, 0)
    }
    try? FileManager.default.removeItem(at: outputURL)
    try? FileManager.default.removeItem(at: errorURL)
  }

  /// The child's process id.
  public var pid: Int32 { child }

  /// Sends `signal` (e.g. `SIGTERM`) to the child.
  public func send(signal: Int32) {
    _ = kill(child, signal)
  }

  /// Everything the child wrote to standard output so far.
  public var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

  /// Everything the child wrote to standard error so far.
  public var errorOutput: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

  /// The exit status once the child exits (128 + signal when a signal ended it), or nil if it
  /// still runs after `timeout` (a bound against hangs, not a speed assertion).
  public func exitStatus(within timeout: Duration = .seconds(60)) async -> Int32? {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let known = reap() { return known }
      guard ContinuousClock.now < deadline else { return nil }
      try? await Task.sleep(for: .milliseconds(20))
    }
  }

  /// Collects the child's status without blocking; nil while it runs.
  private func reap() -> Int32? {
    status.withLock { status in
      if let status { return status }
      var raw: Int32 = 0
      guard waitpid(child, &raw, WNOHANG) == child else { return nil }
      // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
      status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
      return status
    }
  }

  /// Runs `artwork arguments...` to completion: its exit status, standard output and error.
  public static func run(
    _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(120)
  ) async throws -> (status: Int32?, output: String, error: String) {
    let child = try ServiceProcess(arguments, environment: environment)
    let status = await child.exitStatus(within: timeout)
    return (status, child.output, child.errorOutput)
  }

  /// Runs a program found on PATH (python3, node...) to completion: its exit status, standard
  /// output and error. Nil status when it still runs after `timeout` (then it is killed).
  public static func runProgram(
    _ name: String, _ arguments: [String], timeout: Duration = .seconds(300)
  ) async throws -> (status: Int32?, output: String, error: String) {
    guard let path = which(name) else { throw ServiceProcessError.notFound(name) }
    let environment = ProcessInfo.processInfo.environment.filter {
      ["PATH", "HOME", "LANG"].contains($0.key)
    }
    let child = try ServiceProcess(executable: path, arguments, environment: environment)
    let status = await child.exitStatus(within: timeout)
    return (status, child.output, child.errorOutput)
  }

  /// The absolute path of `name` on PATH, if it is there.
  public static func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// A loopback port that was free a moment ago, drawn from 23000-29999 and bound to check.
  /// Below the kernel's ephemeral range (32768 up): a port from bind(0) is one any client
  /// socket may take as its own before the server binds it, and the tests open thousands
  /// (an admission test's caddy once found its port so taken). Clear of SeaweedFS's blocks
  /// (20000-22767, 30000-32767).
  public static func freePort() -> Int {
    for _ in 0..<200 {
      let port = Int.random(in: 23_000...29_999)
      if isFreeOnLoopback(port) { return port }
    }
    preconditionFailure("no free port in 23000-29999 on 127.0.0.1")
  }

  /// Whether 127.0.0.1:`port` can be bound this moment (bound, then closed at once).
  public static func isFreeOnLoopback(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bind(fd, generic, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}

/// Why a `ServiceProcess` could not start.
public enum ServiceProcessError: Error, Equatable {
  case spawnFailed(errno: Int32)
  /// The program is not on PATH.
  case notFound(String)
}
