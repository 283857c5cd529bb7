import ArtworkCore
import Observability
import WorkerHost

/// How the image workers' events reach the log.
enum WorkerEventLog {
  /// Logs a worker event once: a failure at error level with the input's SHA-256 (the image is
  /// what to look at), an interruption from outside at warning (the machine is what to look
  /// at), a refusal of a remembered input at info, a replacement at info.
  static func log(_ event: WorkerEvent, to logger: Logger) {
    switch event {
    case .failed(let report):
      logger.log(
        .error, "an image made its worker fail",
        [
          "reason": .string(report.reason.rawValue), "job": .string(report.job),
          "input_sha256": .string(report.inputSHA256), "input_bytes": .int(report.inputBytes),
          "worker_pid": .int(Int(report.pid)), "details": .string(report.details),
        ])
    case .interrupted(let report):
      logger.log(
        .warn,
        report.retried
          ? "an image worker was ended from outside; the image is tried again"
          : "an image worker was ended from outside again; the request is answered 503",
        [
          "cause": .string(report.cause.rawValue), "job": .string(report.job),
          "input_sha256": .string(report.inputSHA256), "input_bytes": .int(report.inputBytes),
          "worker_pid": .int(Int(report.pid)), "details": .string(report.details),
        ])
    case .refused(let reason):
      logger.log(
        .info, "refused an image that made a worker fail before",
        ["reason": .string(reason.rawValue)])
    case .replaced(let pid):
      logger.log(.info, "image worker started", ["worker_pid": .int(Int(pid))])
    case .replacementFailed(let why):
      logger.log(.error, "image worker could not be started", ["error": .string(why)])
    }
  }
}
