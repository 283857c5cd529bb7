import ArtworkCore
internal import CProcess
import WorkerProtocol

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
    /// The worker died in the middle of the job, or was killed at its deadline; it must be
    /// replaced.
    case died(WorkerDeath)
    /// The worker broke the protocol (an answer too long or malformed, an output file shorter
    /// than its answer said, its socket closed while it lived on): it was killed for it, and
    /// must be replaced. Not a death: what it sent is the failure.
    case brokeProtocol(WorkerDeath)
    /// The job could not be handed to the worker (its input file could not be written): the
    /// worker lives on, waiting for the next job.
    case notHandedOver(ArtworkError)
    /// The worker was gone before it took the job (it died between jobs): the job is not to
    /// blame, and goes to another worker.
    case unavailable(WorkerDeath)
  }

  /// The worker's process id.
  let pid: pid_t
  /// The longest input or output file a worker keeps between jobs (`MemoryFile`): an upload of
  /// a few MB reuses its pages; a longer one gives them back after its job. At most two such
  /// files per worker stay in memory.
  static let keptFileBytes = 4 << 20
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
  /// The libvips version the worker decodes with, from its `ready` (empty until then).
  private(set) var libvipsVersion = ""
  /// The CPU time the worker had used when its current job was handed over, in microseconds
  /// (0 before its first job, or when its clock could not be read).
  private var cpuAtJobStart: Int64 = 0

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
    // The child's descriptors, moved above the ones it will be given (`WorkerLaunch`: 2 to 5),
    // so that no dup2 of the spawn overwrites one still to be copied.
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
    let given = [
      WorkerLaunch.errors, WorkerLaunch.socket, WorkerLaunch.inputFile, WorkerLaunch.outputFile,
    ]
    for (descriptor, number) in zip(childEnds, given) {
      posix_spawn_file_actions_adddup2(&actions, descriptor, number)
    }
    let arguments = [
      "artwork", WorkerLaunch.command, "--parent", String(getpid()),
      "--memory", String(settings.memoryBytes),
    ]
    // A fixed environment: nothing of the service's (its tokens, its keys) reaches a worker.
    let environment = ["LC_ALL=C", "MALLOC_ARENA_MAX=2"]
    var child: pid_t = 0
    let status = withCStrings(arguments) { argv in
      withCStrings(environment) { envp in
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
      if let ready = try? WorkerMessages.readReady(bytes), ready.pid == pid {
        libvipsVersion = ready.libvips
        return
      }
      throw startFailure(
        end(.protocolError("a start-up message of another protocol"), how: "it started"))
    case .closed: throw startFailure(endAfterClosed(how: "it exited while starting"))
    case .timedOut: throw startFailure(end(.deadline, how: "it did not start in time"))
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
      return .unavailable(end(.cleanup, how: "it was gone before the job"))
    }
    defer {
      // Pages are kept for the next job, unless this one made a file longer than the bound.
      input.keep(atMost: Self.keptFileBytes)
      output.keep(atMost: Self.keptFileBytes)
    }
    do {
      try input.replace(with: bytes)
    } catch {
      return .notHandedOver(error)
    }
    cpuAtJobStart = max(0, artwork_process_cpu_us(pid))
    let message = WorkerMessages.job(job, inputCount: bytes.count, limits: limits)
    let sent = message.withUnsafeBytes {
      send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    guard sent == message.count else {
      return .unavailable(
        end(.cleanup, how: "it took no job (\(String(cString: strerror(errno))))"))
    }
    switch receive(until: until) {
    case .timedOut: return .died(end(.deadline, how: "its job ran out of time"))
    case .closed:
      let death = endAfterClosed(how: "it died in the job")
      if case .protocolError = death.kill { return .brokeProtocol(death) }
      return .died(death)
    case .message(let bytes):
      let answer: WorkerAnswer
      do {
        answer = try WorkerMessages.readAnswer(bytes, maxOutputBytes: limits.maxOutputBytes)
      } catch {
        return .brokeProtocol(
          end(.protocolError("a malformed answer: \(error)"), how: "it answered"))
      }
      if case .rendered(let facts) = answer {
        guard let rendered = output.read(count: facts.outputCount) else {
          return .brokeProtocol(
            end(.protocolError("its output file was short of its answer"), how: "it answered"))
        }
        return .answered(answer, output: rendered)
      }
      return .answered(answer, output: [])
    }
  }

  /// The CPU time (user and system, every thread) the living worker has used in its current
  /// or last job so far, in seconds; 0 when its clock cannot be read.
  var cpuSecondsInJob: Double {
    let now = artwork_process_cpu_us(pid)
    guard now >= 0 else { return 0 }
    return Double(max(0, now - cpuAtJobStart)) / 1_000_000
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
    _ = end(.cleanup, how: "stopped")
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

  /// Ends a worker after `receive` answered `.closed`. Its socket hung up: it is ending (a
  /// healthy worker closes its socket only by exiting), so its wait status is awaited, and the
  /// pool sends it nothing that would change it. Or it sent what no answer is (a datagram over
  /// the protocol's largest) and lives on: killed for breaking the protocol.
  private func endAfterClosed(how: String) -> WorkerDeath {
    var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    _ = poll(&descriptor, 1, 0)
    guard descriptor.revents & Int16(POLLHUP) != 0 else {
      return end(
        .protocolError("a message over \(WorkerMessages.maxMessageBytes) bytes, or none readable"),
        how: how)
    }
    guard hasEnded(within: .seconds(2)) else {
      return end(.protocolError("it closed its socket and lived on"), how: how)
    }
    return end(.none, how: how)
  }

  /// Whether the process ends (waits to be reaped) within `time`; looked at without reaping it.
  private func hasEnded(within time: Duration) -> Bool {
    let until = ContinuousClock.now + time
    while true {
      var info = siginfo_t()
      let looked = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
      if looked == 0 && info.si_signo == SIGCHLD { return true }
      // Reaped already (SIGCHLD ignored): it has ended, its status is lost.
      if looked < 0 && errno == ECHILD { return true }
      guard ContinuousClock.now < until else { return false }
      usleep(1000)
    }
  }

  /// Ends the worker, reaps it, and tells how it ended: its wait status, and `action`, what the
  /// pool did to end it.
  ///
  /// NOTE: the kill is sent whatever `action` says. A process that has ended keeps its wait
  /// status whatever it is sent, so a kill after its end changes nothing; and one that has not
  /// must not be waited for forever.
  private func end(_ action: WorkerDeath.Kill, how: String) -> WorkerDeath {
    guard !isGone else {
      return WorkerDeath(status: .unknown, kill: action, how: how, lastWords: lastWords.text)
    }
    isGone = true
    kill(pid, SIGKILL)
    var status: Int32 = 0
    var maxResident = 0
    var cpu: Int64 = 0
    let reaped = artwork_process_wait(pid, &status, &maxResident, &cpu)
    readErrors()
    let ending: WorkerDeath.Status =
      if reaped != pid {
        .unknown
      } else if artwork_process_signalled(status) != 0 {
        .signalled(artwork_process_signal(status))
      } else if artwork_process_exited(status) != 0 {
        .exited(artwork_process_exit_code(status))
      } else {
        .unknown
      }
    return WorkerDeath(
      status: ending, kill: action, how: how, maxResidentBytes: maxResident * 1024,
      cpuSeconds: reaped == pid ? Double(max(0, cpu - cpuAtJobStart)) / 1_000_000 : 0,
      lastWords: lastWords.text)
  }

}

extension WorkerProcess.Outcome {
  /// Whether the worker was gone before it took the job.
  var wasUnavailable: Bool {
    if case .unavailable = self { return true }
    return false
  }
}
