import ArtworkCore

/// How an `HTTPServer` listens, what it accepts and how long it waits. One value, fixed at start.
public struct HTTPServerConfiguration: Sendable {
  /// The address to bind: an IPv4 or IPv6 literal (`127.0.0.1`, `::1`, `0.0.0.0`, `::`).
  public var host: String
  /// The port to bind; 0 picks a free one (read `HTTPServer.port`).
  public var port: Int
  /// The largest request body accepted by routes that set no limit of their own.
  var defaultMaxBodyBytes: Int
  /// The largest request line plus header fields accepted; larger heads get 431.
  public var maxHeaderBytes: Int
  /// The most connections open at once; a connection over it is answered 503 and closed at once.
  public var maxConnections: Int
  /// The most connections open at once from one client network (`clientNetworks`); a
  /// connection over it is answered 429 and closed at once. Behind a proxy that connects from
  /// one address, set it to `maxConnections`.
  public var maxConnectionsPerAddress: Int
  /// How peer addresses group into the networks that connections are counted by (and a body's
  /// share, when its route names none): a /24 and a /64 by default.
  public var clientNetworks: ClientNetworks = .standard
  /// The most request bodies one share (`HTTPRequestHead.share`) may have arriving at once;
  /// one more is answered 503 from its head (`BodyBudget`).
  public var maxBodiesArrivingPerShare: Int = .max
  /// What the operator sets to change `maxConnections` and `maxConnectionsPerAddress`
  /// (`ARTWORK_MAX_CONNECTIONS`): named in the refusals, so the one who reads them knows what
  /// to raise. Nil names none.
  public var connectionSettings: (total: String, perAddress: String)?
  /// How long a keep-alive connection may wait for its next request (and a response may wait
  /// for a client that does not read it) before it is closed; zero never closes them.
  public var idleTimeout: Duration
  /// The time a request head has to arrive whole, from its first byte (from the connection's
  /// start for its first request); later is 408. Zero turns the deadline off.
  public var headTimeout: Duration
  /// The slowest average rate a request body may arrive at once `headTimeout` has passed since
  /// its head, in bytes per second; slower is 408. Zero turns the check off.
  public var minBodyBytesPerSecond: Int
  /// The slowest average rate a client may take an answer at while it does not take all of it,
  /// in bytes per second, once `headTimeout` has passed; slower closes the connection. Zero
  /// turns the check off.
  public var minSendBytesPerSecond: Int
  /// How long a handler may take to answer, from the request's last byte; later, the client
  /// is answered 503 and its connection closes (the handler's answer is dropped when it comes).
  /// The same bound holds for each chunk of a streamed answer. Zero turns the deadline off.
  public var handlerTimeout: Duration
  /// After an answer that closes the connection, how long the rest of the request is still read
  /// and dropped so that the client reads the answer instead of a reset.
  public var lingerTimeout: Duration
  /// The most bytes read and dropped that way per connection.
  public var maxDiscardBytes: Int
  /// The memory all request bodies held at once may use; a request whose body would pass it is
  /// answered 503 from its head.
  public var bodyMemoryLimit: Int
  /// The number of server threads (each runs its own epoll loop). Handlers run on the Swift
  /// concurrency pool, not on these.
  public var threadCount: Int
  /// Renders every error the server answers by itself (400, 404, 405, 408, 413, 429, 431, 501,
  /// 503, 505...), so the application can render them in its own format.
  public var problemResponder: @Sendable (HTTPProblem) -> HTTPResponse
  /// Which pages on other origins may call the server from a browser: applied to every answer
  /// of a request with `Origin`, and to preflights (`OPTIONS` with
  /// `Access-Control-Request-Method`), which the server answers itself. Closed by default.
  public var crossOrigin: CrossOriginPolicy = .closed
  /// A sentence added to the 404 of a path no route serves, when it has one for that path (a
  /// path that looks like documentation: where the documentation is). Nil: none.
  public var notFoundHint: (@Sendable (_ path: String) -> String?)?
  /// Called once per request that got a response, and per connection refused at once (on a
  /// server thread; keep it quick).
  public var accessLog: (@Sendable (HTTPAccessRecord) -> Void)?
  /// Who a request comes from when its peer may speak for others (a reverse proxy): given the
  /// peer's address and the request's fields, the client's address, which the head's
  /// `remoteAddress` and the access record then carry (on a server thread; keep it quick). Nil:
  /// the peer. Connections per address are counted by peer either way.
  public var clientAddress: (@Sendable (_ peer: String, _ headers: HTTPHeaders) -> String)?
  /// Whether a peer may name the client of its requests (a trusted proxy): asked once per
  /// connection, and `clientAddress` then only for the requests of a peer it answered true
  /// for, so the requests of other peers cost nothing. Nil: `clientAddress` is asked for every
  /// request.
  public var speaksForClients: (@Sendable (_ peer: String) -> Bool)?

  /// A configuration; every value has a default that suits tests and small deployments.
  public init(
    host: String = "127.0.0.1", port: Int = 0, defaultMaxBodyBytes: Int = 1 << 20,
    maxHeaderBytes: Int = 16 * 1024, maxConnections: Int = 1024,
    maxConnectionsPerAddress: Int = 256, idleTimeout: Duration = .seconds(30),
    headTimeout: Duration = .seconds(10), minBodyBytesPerSecond: Int = 16 * 1024,
    minSendBytesPerSecond: Int = 16 * 1024, handlerTimeout: Duration = .seconds(60),
    lingerTimeout: Duration = .seconds(10), maxDiscardBytes: Int = 64 << 20,
    bodyMemoryLimit: Int = 256 << 20, threadCount: Int = 2,
    problemResponder: @escaping @Sendable (HTTPProblem) -> HTTPResponse =
      HTTPServerConfiguration.problemJSON,
    accessLog: (@Sendable (HTTPAccessRecord) -> Void)? = nil
  ) {
    self.host = host
    self.port = port
    self.defaultMaxBodyBytes = defaultMaxBodyBytes
    self.maxHeaderBytes = maxHeaderBytes
    self.maxConnections = maxConnections
    self.maxConnectionsPerAddress = maxConnectionsPerAddress
    self.idleTimeout = idleTimeout
    self.headTimeout = headTimeout
    self.minBodyBytesPerSecond = minBodyBytesPerSecond
    self.minSendBytesPerSecond = minSendBytesPerSecond
    self.handlerTimeout = handlerTimeout
    self.lingerTimeout = lingerTimeout
    self.maxDiscardBytes = maxDiscardBytes
    self.bodyMemoryLimit = bodyMemoryLimit
    self.threadCount = threadCount
    self.problemResponder = problemResponder
    self.accessLog = accessLog
  }

  /// The default rendering: RFC 9457 `application/problem+json` with `type` `about:blank`, the
  /// status's `title`, `status`, `detail` and `request_id`.
  @Sendable public static func problemJSON(_ problem: HTTPProblem) -> HTTPResponse {
    var text = #"{"type":"about:blank","title":"#
    text += JSONText.quoted(HTTPStatus.reason(problem.status))
    text += #","status":\#(problem.status),"detail":"#
    text += JSONText.quoted(problem.detail)
    text += #","request_id":"#
    text += JSONText.quoted(problem.requestID)
    text += "}"
    var headers = HTTPHeaders()
    headers.set("Content-Type", "application/problem+json")
    return HTTPResponse(status: problem.status, headers: headers, body: .bytes(Array(text.utf8)))
  }
}

/// JSON string literals, for the default problem rendering.
enum JSONText {
  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
