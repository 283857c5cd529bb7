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
}
