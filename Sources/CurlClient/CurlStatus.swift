internal import CCurl

/// The outcome of `CurlEasy.perform()`: a libcurl result code, with its message.
public struct CurlStatus: Sendable, Equatable, CustomStringConvertible {
  /// The `CURLcode` as an integer.
  public let code: Int
  /// The detail curl wrote into the error buffer, or its generic text for the code.
  public let message: String

  init(_ code: CURLcode, message: String) {
    self.code = Int(code.rawValue)
    self.message = message
  }

  /// The transfer succeeded.
  public var isOK: Bool { code == Int(CURLE_OK.rawValue) }
  /// A deadline ran out.
  public var isTimeout: Bool { code == Int(CURLE_OPERATION_TIMEDOUT.rawValue) }
  /// Every address was refused or unreachable.
  public var isConnectFailure: Bool { code == Int(CURLE_COULDNT_CONNECT.rawValue) }
  /// The host name did not resolve.
  public var isResolveFailure: Bool { code == Int(CURLE_COULDNT_RESOLVE_HOST.rawValue) }
  /// The peer's certificate was not trusted or did not match the host.
  public var isCertificateFailure: Bool {
    code == Int(CURLE_PEER_FAILED_VERIFICATION.rawValue)
  }
  /// The TLS handshake failed for another reason (protocol, cipher, a plain-HTTP peer).
  public var isTLSFailure: Bool {
    code == Int(CURLE_SSL_CONNECT_ERROR.rawValue) || code == Int(CURLE_SSL_CACERT_BADFILE.rawValue)
      || code == Int(CURLE_SSL_CERTPROBLEM.rawValue)
  }
  /// The connection broke or closed before the answer was whole.
  public var isBrokenConnection: Bool {
    code == Int(CURLE_RECV_ERROR.rawValue) || code == Int(CURLE_SEND_ERROR.rawValue)
      || code == Int(CURLE_GOT_NOTHING.rawValue) || code == Int(CURLE_PARTIAL_FILE.rawValue)
  }
  /// The scheme is not one the handle allows.
  public var isUnsupportedProtocol: Bool { code == Int(CURLE_UNSUPPORTED_PROTOCOL.rawValue) }
  /// curl could not parse the URL.
  public var isMalformedURL: Bool { code == Int(CURLE_URL_MALFORMAT.rawValue) }

  public var description: String { "curl error \(code): \(message)" }
}
