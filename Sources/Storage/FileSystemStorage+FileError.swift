import ArtworkCore
import Glibc

extension FileSystemStorage {
  /// A failed system call on a storage file: which call, on which path, and errno.
  /// Internal to the filesystem backend; it leaves as an `ArtworkError` or a readiness sentence.
  struct FileError: Error {
    var operation: String
    var path: String
    var code: Int32

    /// For the log: `open(/data/tmp/x): No space left on device`.
    var internalDetail: String {
      "\(operation)(\(path)): \(Posix.reason(code))"
    }

    /// What a client is told: storage is out of service for now (503 + Retry-After).
    var artworkError: ArtworkError {
      ArtworkError(
        .storageUnavailable, "Storage is unavailable; try again shortly.",
        internalDetail: internalDetail, retryAfter: 5)
    }

    /// For an operator (readiness): the likely cause in words, then the call that failed.
    var sentence: String {
      let cause: String
      switch code {
      case ENOENT: cause = "a storage directory is missing"
      case EROFS: cause = "the storage filesystem is read-only"
      case ENOSPC, EDQUOT: cause = "the storage filesystem is full"
      case EACCES, EPERM: cause = "the storage directory is not writable (permission denied)"
      case ENOTDIR: cause = "a storage path that should be a directory is not one"
      case EIO: cause = "the storage device reports I/O errors"
      default: cause = "a storage operation failed"
      }
      return "\(cause): \(internalDetail)"
    }
  }
}
