import ArtworkCore
internal import CProcess
import Imaging

#if canImport(Glibc)
  import Glibc
#endif

/// One worker process as the service drives it: started from the service's own executable,
/// handed one job at a time over its socket, its input and output crossing in its two memory
/// files, and killed the moment a job passes its deadline, whatever its C code is doing.
///
/// NOTE: `@unchecked Sendable`: a `WorkerProcess` is used by one thread at a time. The pool
/// hands it out under a lock and takes it back the same way (`WorkerPool`).
final class WorkerProcess: @unchecked Sendable {
  /// How one job ended.
  enum Outcome: Sendable {
    /// The worker answered (a failure it reported included), and lives on.
    case answered(WorkerAnswer, output: [UInt8])
    /// The worker is gone (it died, or was killed); it must be replaced.
    case died(WorkerDeath)
    /// The worker was gone before it took the job (it died between jobs): the job is not to
    /// blame, and goes to another worker.
    case unavailable(WorkerDeath)
  }

  /// The worker's process id.
  let pid: pid_t
  /// The service's end of the socket pair.
  private let socket: Int32
  /// The read end of the worker's standard error (non-blocking).
  private let errors: Int32
  private let input: MemoryFile
  private let output: MemoryFile
  /// The last bytes the worker wrote to standard error.
  private var lastWords = TailBuffer(capacity: 2048)
  /// Set once the process is gone (killed and reaped).
  private(set) var isGone = false
  private let memoryLimit: Int

  /// Starts a worker (it then loads, warms up and locks itself down: `waitUntilReady`).
  init(_ settings: WorkerSettings) throws(ArtworkError) {
    func failure(_ call: String) -> ArtworkError {
      ArtworkError(
        .internal, "The image workers could not be started.",
        internalDetail: "\(call): \(String(cString: strerror(errno)))")
    }
    var pair: [Int32] = [-1, -1]
    guard
      Glibc.socketpair(
        AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0
    else { throw failure("socketpair") }
    var pipe: [Int32] = [-1, -1]
    guard artwork_process_pipe(&pipe) == 0 else {
      close(pair[0])
      close(pair[1])
      throw failure("pipe2")
    }
    let input: MemoryFile
    let output: MemoryFile
    do {
      input = try MemoryFile(name: "artwork-input")
      output = try MemoryFile(name: "artwork-output")
    } catch {
      for descriptor in pair + pipe { close(descriptor) }
      throw error
    }
    // The child's descriptors, moved above the ones it will be given (2 to 5), so that no
    // dup2 of the spawn overwrites one still to be copied.
    let childEnds = [pipe[1], pair[1], input.descriptor, output.descriptor].map {
      fcntl($0, F_DUPFD_CLOEXEC, 10)
    }
    close(pipe[1])
    close(pair[1])
    defer { for descriptor in childEnds where descriptor >= 0 { close(descriptor) } }
    guard childEnds.allSatisfy({ $0 >= 0 }) else {
      close(pair[0])
      close(pipe[0])
      throw failure("fcntl")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    for (index, descriptor) in childEnds.enumerated() {
      posix_spawn_file_actions_adddup2(&actions, descriptor, Int32(2 + index))
    }
    let arguments = [
      "artwork", WorkerMain.command, "--parent", String(getpid()),
      "--memory", String(settings.memoryBytes),
    ]
    // A fixed environment: nothing of the service's (its tokens, its keys) reaches a worker.
    let environment = ["LC_ALL=C", "MALLOC_ARENA_MAX=2"]
    var child: pid_t = 0
    let status = Self.withCStrings(arguments) { argv in
      Self.withCStrings(environment) { envp in
        posix_spawn(&child, settings.executable, &actions, nil, argv, envp)
      }
    }
    guard status == 0 else {
      close(pair[0])
      close(pipe[0])
      throw ArtworkError(
        .internal, "The image workers could not be started.",
        internalDetail: "posix_spawn \(settings.executable): \(String(cString: strerror(status)))")
    }
    pid = child
    socket = pair[0]
    errors = pipe[0]
    self.input = input
    self.output = output
    memoryLimit = settings.memoryBytes
  }

  deinit {
    stop()
    close(socket)
    close(errors)
  }

  /// Waits for the worker's `ready` (it has loaded, run every decoder once and locked itself
  /// down); a worker that does not say so in `time` is killed, and the failure thrown.
  func waitUntilReady(within time: Duration) throws(ArtworkError) {
    switch receive(until: .now + time) {
    case .message(let bytes):
      if let said = try? WorkerMessages.readReady(bytes), said == pid { return }
      let death = end(how: "a start-up message of another protocol", reason: .crash)
      throw startFailure(death)
    case .closed: throw startFailure(end(how: "it exited while starting", reason: .crash))
    case .timedOut: throw startFailure(end(how: "it did not start in time", reason: .timeout))
    }
  }

  private func startFailure(_ death: WorkerDeath) -> ArtworkError {
    ArtworkError(
      .internal, "The image workers could not be started.",
      internalDetail: "worker \(pid): \(death)")
  }

  /// Runs `job` on `bytes` within `limits`, waiting at most `deadline` for the answer.
  func perform(
    _ job: WorkerJob, on bytes: ArraySlice<UInt8>, limits: ImageLimits, deadline: Duration
  ) -> Outcome {
    let until = ContinuousClock.now + deadline
    if !isIdleAndAlive {
      return .unavailable(end(how: "it was gone before the job", reason: .crash))
    }
    defer {
      // Between jobs a worker holds no image's pages.
      input.empty()
      output.empty()
    }
    do {
      try input.replace(with: bytes)
    } catch {
      return .answered(.failed(error), output: [])
    }
    let message = WorkerMessages.job(job, inputCount: bytes.count, limits: limits)
    let sent = message.withUnsafeBytes {
      send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    guard sent == message.count else {
      return .unavailable(
        end(how: "it took no job (\(String(cString: strerror(errno))))", reason: .crash))
    }
    switch receive(until: until) {
    case .timedOut: return .died(end(how: "killed at its deadline", reason: .timeout))
    case .closed: return .died(end(how: "it died in the job", reason: nil))
    case .message(let bytes):
      guard
        let answer = try? WorkerMessages.readAnswer(bytes, maxOutputBytes: limits.maxOutputBytes)
      else { return .died(end(how: "it sent a malformed answer", reason: .crash)) }
      if case .rendered(let facts) = answer {
        guard let rendered = output.read(count: facts.outputCount) else {
          return .died(end(how: "its output file was short", reason: .crash))
        }
        return .answered(answer, output: rendered)
      }
      return .answered(answer, output: [])
    }
  }

  /// Whether the worker is waiting for a job: its socket is open, and it has said nothing since
  /// its last answer (a worker that died between jobs shows as a hang-up here).
  private var isIdleAndAlive: Bool {
    guard !isGone else { return false }
    var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) == 0
  }

  /// Ends the worker (it exits on its own when its socket closes; the kill makes sure).
  func stop() {
    guard !isGone else { return }
    _ = end(how: "stopped", reason: .crash)
  }

  private enum Received {
    case message([UInt8])
    case closed
    case timedOut
  }

  /// The next message from the worker, reading its standard error meanwhile.
  private func receive(until: ContinuousClock.Instant) -> Received {
    var descriptors = [
      pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
      pollfd(fd: errors, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      let left = ContinuousClock.now.duration(to: until)
      guard left > .zero else { return .timedOut }
      let milliseconds = Int32(clamping: left.wholeMilliseconds + 1)
      for index in descriptors.indices { descriptors[index].revents = 0 }
      let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { continue }
      if descriptors[1].revents != 0 { readErrors() }
      if descriptors[0].revents != 0 {
        var buffer = [UInt8](repeating: 0, count: WorkerMessages.maxMessageBytes + 1)
        let got = try? POSIXIO.readSome(socket, into: &buffer)
        guard let got, got > 0, got <= WorkerMessages.maxMessageBytes else { return .closed }
        return .message(Array(buffer[0..<got]))
      }
    }
  }

  /// Keeps what the worker wrote to standard error (its last 2 KiB).
  private func readErrors() {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
      guard got > 0 else { return }
      lastWords.append(chunk[0..<got])
    }
  }

  /// Kills and reaps the worker; how it ended. `reason` nil: judged from how it died.
  private func end(how: String, reason: DecoderFailure?) -> WorkerDeath {
    guard !isGone else {
      return WorkerDeath(
        reason: reason ?? .crash, maxResidentBytes: 0, lastWords: lastWords.text, how: how)
    }
    isGone = true
    kill(pid, SIGKILL)
    var status: Int32 = 0
    var maxResident = 0
    _ = artwork_process_wait(pid, &status, &maxResident)
    readErrors()
    let words = lastWords.text
    let residentBytes = maxResident * 1024
    let signal = artwork_process_signalled(status) != 0 ? artwork_process_signal(status) : nil
    let exitCode = artwork_process_exited(status) != 0 ? artwork_process_exit_code(status) : nil
    return WorkerDeath(
      reason: reason
        ?? WorkerDeath.reason(
          lastWords: words, maxResidentBytes: residentBytes, memoryLimit: memoryLimit),
      signal: signal, exitCode: exitCode, maxResidentBytes: residentBytes, lastWords: words,
      how: how)
  }

  private static func withCStrings<R>(
    _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R
  ) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
  }
}

/// The last `capacity` bytes of a stream, as text.
struct TailBuffer {
  let capacity: Int
  private var bytes: [UInt8] = []

  init(capacity: Int) { self.capacity = capacity }

  mutating func append(_ more: ArraySlice<UInt8>) {
    bytes.append(contentsOf: more)
    if bytes.count > capacity { bytes.removeFirst(bytes.count - capacity) }
  }

  /// The bytes as UTF-8 (invalid sequences replaced), lines joined by `; `, trimmed.
  var text: String {
    String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      .joined(separator: "; ")
  }
}

extension WorkerProcess.Outcome {
  /// Whether the worker was gone before it took the job.
  var wasUnavailable: Bool {
    if case .unavailable = self { return true }
    return false
  }
}
