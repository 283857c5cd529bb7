import ArtworkCore
import Foundation
import WorkerProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// The attempts of a containment probe, made in this process.
///
/// NOTE: run outside a sandbox (a test calling it in-process), every attempt is harmless: what
/// it opens or connects is closed at once, a file it creates is removed, the program started is
/// the one named (`/bin/true` in the tests).
extension ContainmentProbe {
  /// Makes every attempt on `targets`.
  static func run(_ targets: Targets) -> Report {
    var attempts: [Attempt] = []
    func record(_ action: String, _ succeeded: Bool, _ outcome: String? = nil) {
      attempts.append(
        Attempt(action: action, succeeded: succeeded, outcome: outcome ?? systemWords()))
    }

    let reading = open(targets.file, O_RDONLY | O_CLOEXEC)
    if reading >= 0 { close(reading) }
    record("open \(targets.file)", reading >= 0)

    let created = "/tmp/artwork-probe-\(getpid())"
    let writing = open(created, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if writing >= 0 {
      close(writing)
      unlink(created)
    }
    record("create \(created)", writing >= 0)

    let socketFD = socket(
      AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    if socketFD < 0 {
      record("connect \(targets.host):\(targets.port)", false, "socket: \(systemWords())")
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(clamping: targets.port).bigEndian)
      inet_pton(AF_INET, targets.host, &address.sin_addr)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      record("connect \(targets.host):\(targets.port)", connected == 0)
      close(socketFD)
    }

    var child: pid_t = 0
    let spawned = withCStrings([targets.program]) { argv in
      posix_spawn(&child, targets.program, nil, nil, argv, nil)
    }
    if spawned == 0 {
      var status: Int32 = 0
      waitpid(child, &status, 0)
    }
    record("start \(targets.program)", spawned == 0, String(cString: strerror(spawned)))

    let signalled = kill(getppid(), 0)
    record("signal the parent process", signalled == 0)

    var unlimited = rlimit(rlim_cur: rlim_t.max, rlim_max: rlim_t.max)
    let raised = setrlimit(Int32(RLIMIT_DATA.rawValue), &unlimited)
    record("raise the memory limit", raised == 0)
    return Report(attempts: attempts)
  }

  private static func systemWords() -> String { String(cString: strerror(errno)) }
}
