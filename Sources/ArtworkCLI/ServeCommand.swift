import ArtworkService
import Observability

/// `artwork serve`: configuration, start-up warnings, listen, wait for a signal, drain.
enum ServeCommand: Subcommand {
  static let name = "serve"
  static let synopsis = "serve"
  static let summary = "Run the HTTP service (configured by ARTWORK_* variables)"

  /// Everything an operator needs without the README (a container has none): what the service
  /// does on signals, its exit statuses, its health endpoints, and every variable.
  static let help =
    """
    artwork serve

    Runs the HTTP service. Configuration comes from the environment only, in the variables
    below; every bad variable is reported at once.

    Signals: SIGTERM or SIGINT stop accepting connections, let in-flight requests finish within
    ARTWORK_SHUTDOWN_GRACE (default 8s), then exit. A container runtime must wait longer than
    that before it kills the process (docker stop waits 10 s by default; raise it with
    docker stop -t when ARTWORK_SHUTDOWN_GRACE is raised). SIGHUP re-reads
    ARTWORK_API_TOKENS_FILE; a bad (or half-written) file keeps the tokens in force and logs an
    error. The new tokens are in force once "API tokens reloaded" is logged (and
    artwork_api_token_reloads_total{result="ok"} goes up), a moment after kill returns.

    Exit status: 0 after a clean shutdown; 1 when the service cannot start (storage, listen
    address; the reason is logged); 2 for invalid configuration.

    Health: GET /healthz answers 200 while the process serves (`artwork health` asks it);
    GET /readyz answers 200 when storage can take new objects, else 503 with the reason;
    GET /metrics is Prometheus text.

    Logs: JSON lines on standard error, one per request and one per error.

    """ + ServiceConfig.markdownTable()

  static func run(_ parsed: ParsedArguments, environment: [String: String])
    async throws(UsageError) -> Int32
  {
    guard parsed.operands.isEmpty else { throw unexpected(parsed.operands[0]) }
    let config: ServiceConfig
    do {
      DescriptorLimit.raiseToHard()
      config = try ServiceConfig(environment: environment)
    } catch {
      Console.printError(
        "artwork: invalid configuration:\n"
          + error.problems.map { "  - \($0)" }.joined(separator: "\n"))
      return 2
    }
    let logger = Logger(level: config.logLevel)
    for warning in config.warnings { logger.warn(warning) }
    Runtime.initialize()
    let server: ArtworkServer
    do {
      server = try await ArtworkServer(config: config, logger: logger)
    } catch {
      logger.error("cannot start", ["reason": .string(error.description)])
      return 1
    }
    // Signals are taken before the service says it listens: a SIGHUP sent at once reloads.
    let signals = SignalWaiter { server.reloadTokens() }
    var fields = config.summary
    fields["address"] = .string("\(config.listen.host):\(server.port)")
    logger.info("listening", fields)
    let received = await signals.wait()
    logger.info("shutting down", ["signal": .int(Int(received))])
    await server.shutdown()
    logger.info("stopped")
    return 0
  }
}
