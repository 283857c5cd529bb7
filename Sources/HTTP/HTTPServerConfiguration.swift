/// How an `HTTPServer` listens and what it accepts. One value, fixed at start.
public struct HTTPServerConfiguration: Sendable {
  /// The address to bind: an IPv4 or IPv6 literal (`127.0.0.1`, `::1`, `0.0.0.0`, `::`).
  public var host: String
  /// The port to bind; 0 picks a free one (read `HTTPServer.port`).
  public var port: Int
  /// The largest request body accepted by routes that set no limit of their own.
  public var defaultMaxBodyBytes: Int
  /// The largest request line plus header fields accepted; larger heads get 431 (or, far over
  /// the limit, MHD's own 431/400 without a problem body).
  public var maxHeaderBytes: Int
  /// The most connections open at once; further connections are closed at accept.
  public var maxConnections: Int
  /// Seconds a connection may stay idle (between requests or mid-request) before it is closed;
  /// 0 never closes idle connections. A request whose handler is running is not idle.
  public var idleTimeout: Int
  /// The number of server threads (each runs its own epoll loop). Handlers run on the Swift
  /// concurrency pool, not on these.
  public var threadCount: Int
  /// Renders every error the server generates itself (400, 404, 405, 413, 431, 500, 503) into a
  /// response, so the application can render them in its own error format.
  public var problemResponder: @Sendable (_ status: Int, _ detail: String) -> HTTPResponse
  /// Called once per request that got a response (on a server thread; keep it quick).
  public var accessLog: (@Sendable (HTTPAccessRecord) -> Void)?

  /// A configuration; every value has a default that suits tests and small deployments.
  public init(
    host: String = "127.0.0.1", port: Int = 0, defaultMaxBodyBytes: Int = 1 << 20,
    maxHeaderBytes: Int = 16 * 1024, maxConnections: Int = 1024, idleTimeout: Int = 30,
    threadCount: Int = 2,
    problemResponder: @escaping @Sendable (_ status: Int, _ detail: String) -> HTTPResponse =
      HTTPServerConfiguration.plainProblem,
    accessLog: (@Sendable (HTTPAccessRecord) -> Void)? = nil
  ) {
    self.host = host
    self.port = port
    self.defaultMaxBodyBytes = defaultMaxBodyBytes
    self.maxHeaderBytes = maxHeaderBytes
    self.maxConnections = maxConnections
    self.idleTimeout = idleTimeout
    self.threadCount = threadCount
    self.problemResponder = problemResponder
    self.accessLog = accessLog
  }

  /// The default problem rendering: `text/plain`, `"<status> <reason>: <detail>"`.
  @Sendable public static func plainProblem(_ status: Int, _ detail: String) -> HTTPResponse {
    var headers = HTTPHeaders()
    headers.set("Content-Type", "text/plain; charset=utf-8")
    let text = "\(status) \(HTTPStatus.reason(status)): \(detail)\n"
    return HTTPResponse(status: status, headers: headers, body: .bytes(Array(text.utf8)))
  }
}
