import CMicroHTTPD
import Synchronization

/// The state of one request, from its request line to MHD's completion callback.
///
/// MHD stores it (retained) in the request's context slot; the completion callback releases it.
/// Handler and stream tasks keep their own strong references, so it outlives the connection
/// when a handler finishes late.
final class RequestContext: Sendable {
  /// Where the request is in its exchange.
  enum Phase: Sendable {
    /// The request line arrived; headers not yet looked at.
    case new
    /// An answer decided from the headers of a request without a body, queued on the next
    /// call: MHD closes the connection after a response queued on the headers call.
    case answering(HTTPResponse)
    /// Headers accepted; body bytes are being collected.
    case receiving(Router.Route, parameters: [String: String], HTTPRequestHead)
    /// The handler runs (connection suspended) or its response waits to be queued.
    case handling
    /// A response was queued (or the request was cut); nothing more to do.
    case responded
  }

  /// Everything mutable, behind one lock.
  struct State: Sendable {
    var phase = Phase.new
    /// The request id, once headers are known.
    var id: String?
    var method: HTTPMethod?
    var path: String?
    var remoteAddress: String?
    /// The route's body limit and the bytes collected so far.
    var limit = 0
    var body: [UInt8] = []
    /// Whether the connection is suspended and waits for exactly one resume.
    var suspended = false
    /// Set at shutdown: never suspend again, answer 503 if no response is ready.
    var aborted = false
    /// The handler's response, waiting for the MHD thread to queue it.
    var pending: HTTPResponse?
    /// For the access log.
    var status: Int?
    var bytesSent = 0
  }

  /// The connection this request arrived on.
  let connection: MHDConnection
  /// The request-target exactly as sent.
  let rawTarget: String
  /// When the request line arrived.
  let started = ContinuousClock.now
  /// The mutable state.
  let state = Mutex(State())

  /// The server's count of live request objects.
  private let live: LiveCount

  /// A context for a request whose request line just arrived.
  init(connection: MHDConnection, rawTarget: String, live: LiveCount) {
    self.connection = connection
    self.rawTarget = rawTarget
    self.live = live
    live.increment()
  }

  deinit {
    live.decrement()
  }

  /// Suspends the connection unless the request was aborted. Call only from the MHD thread,
  /// inside an MHD callback; start the work that will resume it only after this returns true.
  func suspend() -> Bool {
    state.withLock { state in
      guard !state.aborted else { return false }
      precondition(!state.suspended, "request suspended twice")
      state.suspended = true
      MHD_suspend_connection(connection.raw)
      return true
    }
  }
}
