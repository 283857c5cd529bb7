import HTTP
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A handler that does not answer within `handlerTimeout`: the client is answered 503, and the
/// handler's task is cancelled, so its cooperative work stops instead of running on for nobody.
@Suite struct HandlerTimeoutTests {
  @Test func aHandlerPastItsDeadlineIsCancelled() async throws {
    let started = Counter()
    let sleepCancelled = Counter()
    let workStopped = Counter()
    var router = Router()
    // Waits, as a handler waiting for a fetch or a worker does.
    router.add(.get, "/wait") { _ in
      started.increment()
      do {
        try await Task.sleep(for: .seconds(600))
      } catch is CancellationError {
        sleepCancelled.increment()
      } catch {}
      return HTTPResponse(status: 200)
    }
    // Works a step at a time, checking between steps whether it is still wanted.
    router.add(.get, "/work") { _ in
      started.increment()
      while !Task.isCancelled {
        usleep(1000)
        await Task.yield()
      }
      workStopped.increment()
      return HTTPResponse(status: 200)
    }
    let server = try TestServer(router) { $0.handlerTimeout = .milliseconds(300) }
    for path in ["/wait", "/work"] {
      let response = try await server.send(.init("GET", path))
      #expect(response.status == 503, "\(path)")
      #expect(response.header("Content-Type") == "application/problem+json")
    }
    #expect(started.count == 2)
    #expect(await server.eventually { sleepCancelled.count == 1 && workStopped.count == 1 })
    // Both tasks ended: nothing is left running (`stop` checks that every task was released).
    await server.stop()
  }

  /// A handler that answers in time is not cancelled.
  @Test func aHandlerThatAnswersInTimeIsNotCancelled() async throws {
    let cancelled = Counter()
    var router = Router()
    router.add(.get, "/") { _ in
      try? await Task.sleep(for: .milliseconds(20))
      if Task.isCancelled { cancelled.increment() }
      return HTTPResponse(status: 200)
    }
    let server = try TestServer(router) { $0.handlerTimeout = .seconds(30) }
    let client = try await server.client()
    for _ in 0..<3 {
      #expect(try await client.send(.init("GET", "/")).status == 200)
    }
    #expect(cancelled.count == 0)
    await server.stop()
  }
}
