/// How the service starts a worker: the hidden command of its own executable that makes it one
/// (`artwork __worker --parent PID --memory BYTES`, never typed by people), and the descriptors
/// it hands over. 0 and 1 are /dev/null; nothing above 5 stays open.
public enum WorkerLaunch {
  /// The hidden command.
  public static let command = "__worker"

  /// The pipe the worker's standard error goes to (the service logs its last words).
  package static let errors: Int32 = 2
  /// The worker's end of the socket pair the messages go over (`WorkerMessages`).
  package static let socket: Int32 = 3
  /// The input file, the job's bytes (`MemoryFile`).
  package static let inputFile: Int32 = 4
  /// The output file, a rendering's bytes.
  package static let outputFile: Int32 = 5
}
