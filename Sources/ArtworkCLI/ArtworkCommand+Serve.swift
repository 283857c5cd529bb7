import ArtworkService
import Foundation

extension ArtworkCommand {
  /// `artwork serve`: configuration, start-up warnings, listen, wait for a signal, drain.
  static func serve(_ arguments: [String], environment: [String: String]) async throws(UsageError)
    -> Int32
  {
    guard let parsed = try parse(arguments, command: "serve") else { return 0 }
    guard parsed.operands.isEmpty else {
      throw UsageError("serve", "unexpected argument '\(parsed.operands[0])'")
    }
    let config: ServiceConfig
    do {
      config = try ServiceConfig(environment: environment)
    } catch {
      printError(
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
