/// The steps of a request whose head a route accepted: what runs once the whole request is in,
/// with the head and context its check made. A connection keeps them after its request
/// (`Exchange.spareSteps`) and the route fills them again for the next one of that route, so a
/// kept-alive client's GETs allocate nothing here.
///
/// NOTE: `@unchecked Sendable`: the steps belong to one exchange, on its connection's loop; what
/// a handler's task gets is a copy of the request and context, never the steps.
protocol PreparedSteps: AnyObject, Sendable {
  /// The route that made them.
  var owner: StepsOwner { get }
  /// Answers from memory, or gives the handler to run, for the whole `request`.
  func proceed(_ request: HTTPRequest) -> Router.Proceed
  /// Lets go of the request's head and context (the exchange is over).
  func empty()
}

/// Names the route a `HandlerSteps` was made by, so that steps are refilled only by their own
/// route (two routes may share a handler type).
final class StepsOwner: Sendable {}

/// The steps of a route made from a `RouteHandler`.
final class HandlerSteps<Handler: RouteHandler>: PreparedSteps, @unchecked Sendable {
  let owner: StepsOwner
  private let handler: Handler
  private let failure: @Sendable (Handler.Failure, HTTPRequestHead) -> HTTPResponse
  private var head: HTTPRequestHead?
  /// The context while filled (`head` is not nil), in storage of its own made once.
  ///
  /// NOTE: not a `Handler.Context?`: this class is not specialised for the handlers of other
  /// modules, and every store to an optional of a generic type looked its metadata up in the
  /// runtime's cache (about 1% of a hosted GET's CPU).
  private let context = UnsafeMutablePointer<Handler.Context>.allocate(capacity: 1)

  init(
    owner: StepsOwner, handler: Handler,
    failure: @escaping @Sendable (Handler.Failure, HTTPRequestHead) -> HTTPResponse
  ) {
    self.owner = owner
    self.handler = handler
    self.failure = failure
  }

  deinit {
    empty()
    context.deallocate()
  }

  func fill(head: HTTPRequestHead, context: Handler.Context) {
    if self.head == nil {
      self.context.initialize(to: context)
    } else {
      self.context.pointee = context
    }
    self.head = head
  }

  func empty() {
    guard head != nil else { return }
    head = nil
    context.deinitialize(count: 1)
  }

  func proceed(_ request: HTTPRequest) -> Router.Proceed {
    guard let head else {
      preconditionFailure("steps run before their route filled them")
    }
    var context = self.context.pointee
    var request = request
    request.head = head
    if let answer = handler.answerFromMemory(request, &context) { return .answer(answer) }
    // Constants for the task: a `var` captured by an escaping closure lives in a box of its own.
    let ready = request
    let readyContext = context
    let handler = handler
    let failure = failure
    return .handle {
      do throws(Handler.Failure) {
        return try await handler.handle(ready, readyContext)
      } catch {
        return failure(error, ready.head)
      }
    }
  }
}
