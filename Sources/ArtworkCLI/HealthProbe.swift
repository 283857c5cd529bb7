import ArtworkCore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One `GET` over a plain TCP socket, for `artwork health`: the runtime image has no curl, and
/// a health check must not need libcurl's start-up either.
struct HealthProbe {
  /// An IP literal or a host name.
  var host: String
  var port: Int
  /// The request target (`/healthz`).
  var path: String
  /// The whole budget: connecting, sending and reading the status line.
  var timeout: Duration = .seconds(3)

  /// Why the probe got no status.
  struct Failure: Error, Equatable {
    /// One line: `connection refused`, `no answer within 3 s`...
    var reason: String
  }

  /// The HTTP status the server answered.
  func status() throws(Failure) -> Int {
    let deadline = ContinuousClock.now + timeout
    let fd = try connect(deadline: deadline)
    defer { close(fd) }
    let request = Array(
      "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nConnection: close\r\n\r\n".utf8)
    var sent = 0
    while sent < request.count {
      sent += try whenReady(fd, for: Int16(POLLOUT), until: deadline) { () throws(POSIXErrno) in
        try POSIXIO.writeSome(fd, request[sent...])
      }
    }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1024)
    while !answer.contains(UInt8(ascii: "\n")) {
      let count = try whenReady(fd, for: Int16(POLLIN), until: deadline) {
        () throws(POSIXErrno) in try POSIXIO.readSome(fd, into: &buffer)
      }
      guard count > 0 else { throw Failure(reason: "the connection closed before an answer") }
      answer += buffer[0..<count]
    }
    // "HTTP/1.1 200 OK"
    let line = String(decoding: answer.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    let words = line.split(separator: " ")
    guard words.count >= 2, words[0].hasPrefix("HTTP/"), let status = Int(words[1]) else {
      throw Failure(reason: "not an HTTP answer")
    }
    return status
  }

  private var hostHeader: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// A connected non-blocking socket to the first address `host` resolves to.
  private func connect(deadline: ContinuousClock.Instant) throws(Failure) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let resolved = getaddrinfo(host, String(port), &hints, &list)
    guard resolved == 0, let first = list else {
      throw Failure(reason: "cannot resolve \(host): \(String(cString: gai_strerror(resolved)))")
    }
    defer { freeaddrinfo(list) }
    let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | socketCloseOnExec, 0)
    guard fd >= 0 else { throw Failure(reason: LocalFile.reason(errno).lowercased()) }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    if Glibc.connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 {
      guard errno == EINPROGRESS else {
        let code = errno
        close(fd)
        throw Failure(reason: LocalFile.reason(code).lowercased())
      }
      do {
        try wait(fd, for: Int16(POLLOUT), until: deadline)
      } catch {
        close(fd)
        throw error
      }
      var code: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
      guard code == 0 else {
        close(fd)
        throw Failure(reason: LocalFile.reason(code).lowercased())
      }
    }
    return fd
  }

  /// `call` on the non-blocking socket, waiting for `events` (until `deadline`) while it would
  /// block: what it answered.
  private func whenReady<Value>(
    _ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant,
    _ call: () throws(POSIXErrno) -> Value
  ) throws(Failure) -> Value {
    while true {
      do {
        return try call()
      } catch {
        guard error.code == EAGAIN else {
          throw Failure(reason: LocalFile.reason(error.code).lowercased())
        }
      }
      try wait(fd, for: events, until: deadline)
    }
  }

  /// Waits until `fd` is ready for `events`, or throws when `deadline` passes first.
  private func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant)
    throws(Failure)
  {
    let ready: Bool
    do {
      ready = try POSIXIO.wait(fd, for: events, until: deadline)
    } catch {
      throw Failure(reason: LocalFile.reason(error.code).lowercased())
    }
    guard ready else { throw timedOut }
  }

  private var timedOut: Failure {
    Failure(reason: "no answer within \(timeout.components.seconds) s")
  }
}

/// `SOCK_CLOEXEC`, which Swift imports as a member of the socket-type enum on Linux.
private let socketCloseOnExec = Int32(SOCK_CLOEXEC.rawValue)
