/// Whose work this is: the caller a request's work is done for (a token's name, or the client
/// address of an anonymous caller), bound for the request's task and every task it starts.
/// `BlockingPool` reads it when work is queued, to give each caller its share.
public enum WorkShare {
  /// The caller of the running task's request; nil outside a request (start-up, sweeps).
  @TaskLocal public static var current: String?
}
