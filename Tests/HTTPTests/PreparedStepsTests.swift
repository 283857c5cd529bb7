import HTTP
import Testing

/// A kept-alive connection refills the steps its last request left: only with the same route's.
@Suite struct PreparedStepsTests {
  @Test func routesOfOneHandlerTypeKeepTheirOwnSteps() async {
    // Routes written as closures share one handler type: the steps a request of `/a` left
    // must not answer a request of `/b`, whichever comes first.
    var router = Router()
    let never: HTTPHandler = { _ in HTTPResponse(status: 500) }
    router.add(.get, "/a", immediate: { _ in HTTPResponse(status: 201) }, never)
    router.add(.get, "/b", immediate: { _ in HTTPResponse(status: 202) }, never)
    router.add(.get, "/c") { _ in HTTPResponse(status: 203) }
    let connection = EmbeddedConnection(router: router)
    for path in ["/a", "/a", "/b", "/a", "/b", "/b", "/c", "/a", "/c"] {
      connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
      await connection.runHandlers()
    }
    #expect(connection.statuses == [201, 201, 202, 201, 202, 202, 203, 201, 203])
  }

  /// What a route's check made for a request (an admission, say) lives until the exchange is
  /// over, then goes: not kept by the steps the connection keeps for its next request.
  final class Admission: Sendable {}

  /// Weak references to every admission made, in order.
  final class Admissions: @unchecked Sendable {
    private var made: [() -> Admission?] = []
    func add(_ admission: Admission) { made.append { [weak admission] in admission } }
    var alive: Int { made.filter { $0() != nil }.count }
    var count: Int { made.count }
  }

  struct AdmittingRoute: RouteHandler {
    let admissions: Admissions

    func check(_ head: inout HTTPRequestHead) -> Admission {
      let admission = Admission()
      admissions.add(admission)
      return admission
    }

    func answerFromMemory(_ request: HTTPRequest, _ context: inout Admission) -> HTTPResponse? {
      request.head.path == "/memory" ? HTTPResponse(status: 200) : nil
    }

    func handle(_ request: HTTPRequest, _ context: Admission) async -> HTTPResponse {
      HTTPResponse(status: 201)
    }
  }

  @Test func theContextIsLetGoOnceItsExchangeIsOver() async {
    let admissions = Admissions()
    var router = Router()
    router.add(.get, "/memory", handler: AdmittingRoute(admissions: admissions))
    router.add(.get, "/task", handler: AdmittingRoute(admissions: admissions))
    let connection = EmbeddedConnection(router: router)
    for path in ["/memory", "/memory", "/task", "/memory", "/task"] {
      connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
      await connection.runHandlers()
      #expect(admissions.alive == 0, "after \(path)")
    }
    #expect(admissions.count == 5)
    #expect(connection.statuses == [200, 200, 201, 200, 201])
  }

  @Test func theContextOfARequestCutShortGoesWithItsConnection() async {
    let admissions = Admissions()
    var router = Router()
    router.add(.get, "/task", handler: AdmittingRoute(admissions: admissions))
    var connection: EmbeddedConnection? = EmbeddedConnection(router: router)
    // The head is checked (an admission made); the body never comes.
    connection?.send("GET /task HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n")
    #expect(admissions.count == 1)
    connection?.reset()
    connection = nil
    #expect(admissions.alive == 0)
  }
}
