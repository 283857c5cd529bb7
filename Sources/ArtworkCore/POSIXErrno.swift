import Glibc

/// The errno a `POSIXIO` call failed with (never `EINTR`: that is retried).
public struct POSIXErrno: Error, Equatable, Sendable {
  /// The error number, e.g. `EAGAIN` or `EBADF`.
  public let code: Int32

  /// The failure `code` names.
  public init(_ code: Int32) { self.code = code }

  /// The C library's words for it (`strerror`).
  public var message: String { String(cString: strerror(code)) }
}
