import ArtworkCore

/// How the service runs its image workers (from `ServiceConfig`, or the CLI's options).
public struct WorkerSettings: Sendable, Equatable {
  /// The executable a worker runs: the service's own (`/proc/self/exe`), started with the
  /// hidden command `WorkerLaunch.command`. Tests that run the service inside the test process
  /// name the built `artwork` instead.
  public var executable: String
  /// Worker processes (`ARTWORK_WORKERS`).
  public var count: Int
  /// Jobs that may wait for a worker (`ARTWORK_QUEUE`); more are refused with 503.
  public var queueLimit: Int
  /// The memory one worker may use (`ARTWORK_WORKER_MEMORY`): its data and private mappings.
  public var memoryBytes: Int
  /// The longest one job may take (`ARTWORK_WORKER_TIMEOUT`): past it, the worker is killed.
  public var timeout: Duration
  /// How long a new worker has to start (load its libraries, run every decoder once, lock
  /// itself down): generous, a debug build on a busy machine is slow.
  public var startTimeout: Duration = .seconds(60)
  /// How long an image that killed a worker is refused without another try.
  public var failureMemory: Duration = .seconds(3600)

  public init(
    executable: String = "/proc/self/exe", count: Int, queueLimit: Int, memoryBytes: Int,
    timeout: Duration
  ) {
    self.executable = executable
    self.count = count
    self.queueLimit = queueLimit
    self.memoryBytes = memoryBytes
    self.timeout = timeout
  }

  /// The budget the pipeline itself keeps (`ImageLimits.maxSeconds`): a little under the kill,
  /// so that work libvips can interrupt ends with an answer and the worker lives on.
  var softSeconds: Double {
    max(0.05, timeout.seconds * 0.9 - 0.05)
  }
}
