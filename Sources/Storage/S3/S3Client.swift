import ArtworkCore
import CurlClient
import Foundation

/// Sends `S3Request`s to the store: libcurl signs each with SigV4 (CURLOPT_AWS_SIGV4 and the
/// credentials as CURLOPT_USERPWD) and performs it on a thread of `S3HandlePool`. No SigV4 code
/// of our own: only the canonical path, query and headers that curl 7.88 expects ready-made.
final class S3Client: Sendable {
  /// Why a request got no HTTP answer.
  struct Failure: Error, Sendable {
    /// A sentence for logs: curl's message, or that the pool was full.
    var message: String
    var isTimeout: Bool
  }

  private let configuration: S3Configuration
  private let pool: S3HandlePool
  /// The largest response body accepted: objects are a few MB, listing pages well under 1 MB.
  static let maxResponseBytes = 64 << 20

  init(configuration: S3Configuration, threads: Int) {
    self.configuration = configuration
    pool = S3HandlePool(threads: threads)
  }

  /// Performs `request` and returns the store's answer (any status), or why there was none.
  func perform(_ request: S3Request) async -> Result<S3Response, Failure> {
    let configuration = self.configuration
    let outcome = await pool.run { easy in
      let result = Self.perform(request, on: easy, configuration: configuration)
      // A handle whose transfer failed is dropped: the next job starts from a fresh one.
      return (result, keepHandle: (try? result.get()) != nil)
    }
    return outcome
      ?? .failure(
        Failure(
          message: "too many S3 requests are waiting for a connection", isTimeout: false))
  }

  /// The blocking part, on a pool thread.
  private static func perform(
    _ request: S3Request, on easy: CurlEasy, configuration: S3Configuration
  ) -> Result<S3Response, Failure> {
    let collected = Collected()
    easy.onHeaderLine = { line in
      collected.header(line)
      return true
    }
    easy.onBody = { chunk in
      collected.body += chunk
      return collected.body.count <= maxResponseBytes
    }
    easy.onProgress = nil
    easy.onOpenSocket = nil
    easy.set(.url, request.url)
    easy.set(.protocols, "http,https")
    easy.set(.followLocation, false)
    easy.set(.connectTimeoutMS, configuration.connectTimeout.milliseconds)
    easy.set(.timeoutMS, configuration.requestTimeout.milliseconds)
    easy.set(.awsSigV4, "aws:amz:\(configuration.region):s3")
    easy.set(.userPassword, "\(configuration.accessKey):\(configuration.secretKey)")
    easy.set(.userAgent, "artwork-s3")
    easy.set(.httpHeader, request.headers.map { "\($0.name): \($0.value)" })
    switch request.method {
    case .put: easy.setBodyRequest(method: "PUT", body: request.body)
    case .get, .head, .delete: easy.setBodylessRequest(method: request.method.rawValue)
    }
    let status = easy.perform()
    // Drop the closures now: they capture this request's buffers.
    easy.onHeaderLine = nil
    easy.onBody = nil
    guard status.isOK else {
      return .failure(
        Failure(
          message: status.description, isTimeout: status.isTimeout))
    }
    let code = easy.info(.responseCode) ?? 0
    return .success(S3Response(status: code, headers: collected.headers, body: collected.body))
  }
}

/// One transfer's response headers and body, filled by curl's callbacks on one pool thread.
private final class Collected {
  var headers: [String: String] = [:]
  var body: [UInt8] = []

  /// Header lines arrive per response: an interim `100 Continue` is followed by the final
  /// status line, which starts the header set afresh.
  func header(_ line: String) {
    if line.hasPrefix("HTTP/") {
      headers = [:]
      return
    }
    if let (name, value) = HeaderSyntax.field(line) { headers[name] = value }
  }
}
