import ArtworkCore
internal import CProcess
import Containment
import Imaging
import WorkerProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// A worker process's life, from `artwork __worker` (`WorkerLaunch.command`, started by the
/// service's `WorkerPool`, never by people): load the libraries, run every decoder once on a
/// built-in sample (`WarmUp`), lock the process down (`Sandbox`), say `ready` with the libvips
/// version, then take one job at a time until the service closes the socket. Its descriptors are
/// `WorkerLaunch`'s.
public enum WorkerMain {
  /// Runs the worker with its command-line `arguments` (after the command); never returns.
  public static func run(_ arguments: [String]) -> Never {
    _ = artwork_process_close_from(UInt32(WorkerLaunch.outputFile + 1))
    artwork_process_set_name("artwork-worker")
    var parent: pid_t = 0
    var memory = 0
    var index = arguments.startIndex
    while index + 1 < arguments.endIndex {
      switch arguments[index] {
      case "--parent": parent = pid_t(arguments[index + 1]) ?? 0
      case "--memory": memory = Int(arguments[index + 1]) ?? 0
      default: break
      }
      index += 2
    }
    guard parent > 0, memory > 0 else {
      fail("usage: artwork \(WorkerLaunch.command) --parent PID --memory BYTES")
    }
    // The service's death takes its workers along.
    guard artwork_process_die_with_parent(parent) != 0 else { exit(0) }
    Vips.initialize()
    WarmUp.run()
    do {
      try Sandbox.enter(
        Sandbox.Limits(memoryBytes: memory, fileBytes: ImageLimits.standard.maxOutputBytes * 2))
    } catch {
      fail("cannot lock the worker down: \(error)")
    }
    artwork_process_trim_heap()
    send(WorkerMessages.ready(pid: getpid(), libvips: Vips.version))
    serve()
  }

  /// Free heap past which a worker gives memory back right after a job (a large picture's).
  static let trimAfterJobBytes = 64 << 20

  /// How long a worker waits idle before it gives back the heap a job left free.
  static let trimWhenIdleMilliseconds: Int32 = 1000

  /// One job after another, until the service closes the socket.
  ///
  /// NOTE: giving freed heap back after every job (`malloc_trim`) cost 6% of the throughput:
  /// the next job faulted the same pages in again. Memory goes back right away only after a
  /// job that left more than `trimAfterJobBytes` free, and otherwise once the worker has been
  /// idle for a second.
  private static func serve() -> Never {
    let input = MemoryFile(adopting: WorkerLaunch.inputFile)
    let output = MemoryFile(adopting: WorkerLaunch.outputFile)
    var buffer = [UInt8](repeating: 0, count: WorkerMessages.maxMessageBytes)
    var holdsFreeHeap = false
    while true {
      if holdsFreeHeap, artwork_process_readable(WorkerLaunch.socket, trimWhenIdleMilliseconds) == 0
      {
        artwork_process_trim_heap()
        holdsFreeHeap = false
      }
      let got = try? POSIXIO.readSome(WorkerLaunch.socket, into: &buffer)
      guard let got, got > 0 else { exit(0) }
      guard let (job, count, limits) = try? WorkerMessages.readJob(Array(buffer[0..<got])) else {
        fail("a malformed job message")
      }
      let answer = handle(job, count: count, limits: limits, input: input, output: output)
      send(WorkerMessages.answer(answer))
      if artwork_process_free_heap_bytes() > trimAfterJobBytes {
        artwork_process_trim_heap()
        holdsFreeHeap = false
      } else {
        holdsFreeHeap = true
      }
    }
  }

  /// The answer to one job; its rendering written to the output file.
  private static func handle(
    _ job: WorkerJob, count: Int, limits: ImageLimits, input: MemoryFile, output: MemoryFile
  ) -> WorkerAnswer {
    // The mapping ends with this function, before the answer goes: the service may empty the
    // input file as soon as it has read the answer.
    guard let bytes = input.mapped(count: count) else {
      return .failed(
        JobFailure(
          code: .internal, detail: "The image could not be read by its worker.",
          internalDetail: "mmap of the input file: \(String(cString: strerror(errno)))"))
    }
    let (answer, rendered) = JobRunner.perform(job, input: bytes, limits: limits)
    if case .rendered = answer, !output.write(rendered) {
      return .failed(
        JobFailure(
          code: .internal, detail: "The image could not be handed back by its worker.",
          internalDetail: "write to the output file: \(String(cString: strerror(errno)))"))
    }
    return answer
  }

  private static func send(_ message: [UInt8]) {
    let sent = message.withUnsafeBytes {
      Glibc.send(WorkerLaunch.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    // The service is gone or broke the protocol: nothing left to do.
    if sent != message.count { exit(0) }
  }

  /// Says why on standard error (the service logs it) and exits with 70 (EX_SOFTWARE).
  private static func fail(_ reason: String) -> Never {
    let line = Array("artwork worker: \(reason)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(70)
  }
}
