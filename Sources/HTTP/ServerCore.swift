import CMicroHTTPD
import Glibc
import Synchronization

/// The state the MHD callbacks share: configuration, routes and the live requests.
///
/// MHD holds one retained reference for the daemon's lifetime (its callback `cls`); tasks that
/// finish after the daemon stopped keep their own.
final class ServerCore: Sendable {
  /// The live requests and whether the server is stopping.
  struct Registry: Sendable {
    var contexts: [ObjectIdentifier: RequestContext] = [:]
    /// Set when in-flight work is being aborted: new requests are aborted from the start.
    var stopping = false
  }

  let configuration: HTTPServerConfiguration
  let router: Router
  let registry = Mutex(Registry())
  /// Resumes decided but not yet handed to MHD; the daemon must not stop while any is pending.
  let pendingResumes = Atomic<Int>(0)
  /// Live request contexts and stream readers (for leak checks).
  let live = LiveCount()
  /// Set during graceful shutdown: every response closes its connection.
  let draining = Atomic<Bool>(false)

  init(configuration: HTTPServerConfiguration, router: Router) {
    self.configuration = configuration
    self.router = router
  }

  /// The number of requests between their request line and their completion.
  var inFlightCount: Int { registry.withLock { $0.contexts.count } }

  /// A new request's context, tracked, and retained for MHD's context slot (released in
  /// `MHDCallbacks.completed`).
  func open(_ connection: OpaquePointer, rawTarget: String) -> UnsafeMutableRawPointer {
    let context = RequestContext(
      connection: MHDConnection(raw: connection), rawTarget: rawTarget, live: live)
    register(context)
    return Unmanaged.passRetained(context).toOpaque()
  }

  /// Tracks a new request; aborted from the start when the server is stopping.
  private func register(_ context: RequestContext) {
    registry.withLock { registry in
      registry.contexts[ObjectIdentifier(context)] = context
      if registry.stopping { context.state.withLock { $0.aborted = true } }
    }
  }

  /// Forgets a finished request and writes its access-log record.
  func finish(_ context: RequestContext, cleanly: Bool) {
    registry.withLock { _ = $0.contexts.removeValue(forKey: ObjectIdentifier(context)) }
    guard let log = configuration.accessLog else { return }
    let snapshot = context.state.withLock { $0 }
    guard let status = snapshot.status else { return }
    let elapsed = ContinuousClock.now - context.started
    let components = elapsed.components
    log(
      HTTPAccessRecord(
        requestID: snapshot.id ?? "-", method: snapshot.method ?? HTTPMethod(rawValue: "-"),
        path: snapshot.path ?? context.rawTarget, status: status,
        duration: Double(components.seconds) + Double(components.attoseconds) * 1e-18,
        bytesSent: snapshot.bytesSent, remoteAddress: snapshot.remoteAddress,
        completed: cleanly))
  }

  /// Applies `update` to the request's state and resumes its connection if it is suspended.
  /// Safe from any thread; resumes at most once per suspend.
  func resume(
    _ context: RequestContext, _ update: (inout RequestContext.State) -> Void = { _ in }
  ) {
    let mustResume = context.state.withLock { state in
      update(&state)
      guard state.suspended else { return false }
      state.suspended = false
      pendingResumes.add(1, ordering: .sequentiallyConsistent)
      return true
    }
    guard mustResume else { return }
    MHD_resume_connection(context.connection.raw)
    pendingResumes.subtract(1, ordering: .sequentiallyConsistent)
  }

  /// Aborts every live request: suspended ones are resumed (and answered 503 unless their
  /// response is ready), and none may suspend again. Returns once every resume reached MHD.
  func abortAll() {
    let contexts = registry.withLock { registry in
      registry.stopping = true
      return Array(registry.contexts.values)
    }
    for context in contexts {
      resume(context) { $0.aborted = true }
    }
    while pendingResumes.load(ordering: .sequentiallyConsistent) > 0 {
      _ = sched_yield()
    }
  }
}
