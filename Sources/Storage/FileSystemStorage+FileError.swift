import ArtworkCore
import Glibc

extension FileSystemStorage {
  /// A failed system call on a storage file: which call, on which path, and errno.
  /// Internal to the filesystem backend; it leaves as an `ArtworkError` or a `StorageProblem`.
  struct FileError: Error {
    var operation: String
    var path: String
    var code: Int32
    /// What the numbers were, when the failure is our own judgement (the free-space margin).
    var note: String? = nil

    /// For the log: `open(/data/tmp/x): No space left on device`.
    var internalDetail: String {
      "\(operation)(\(path)): \(note ?? Posix.reason(code))"
    }

    /// Whether the filesystem (or the quota) has no room for what was being written.
    var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT }

    /// What a client is told. Out of space is 507 without a retry hint: retrying does not help
    /// until an operator makes room. Anything else is storage out of service for now (503 with
    /// Retry-After).
    var artworkError: ArtworkError {
      if isOutOfSpace {
        return ArtworkError(
          .insufficientStorage,
          "Storage is full: the image was not stored. It can be stored once space is freed.",
          internalDetail: internalDetail)
      }
      return ArtworkError(
        .storageUnavailable, "Storage is unavailable; try again shortly.",
        internalDetail: internalDetail, retryAfter: 5)
    }

    /// For an operator (readiness, start-up): the likely cause in words, then the call that
    /// failed.
    var problem: StorageProblem {
      let cause: String
      switch code {
      case ENOENT: cause = "a storage directory is missing"
      case EROFS: cause = "the storage filesystem is read-only"
      case ENOSPC, EDQUOT:
        cause =
          note == nil
          ? "the storage filesystem is full"
          : "the storage filesystem is nearly full (below the free space it must keep)"
      case EACCES, EPERM: cause = "the storage directory is not writable (permission denied)"
      case ENOTDIR: cause = "a storage path that should be a directory is not one"
      case EIO: cause = "the storage device reports I/O errors"
      default: cause = "a storage operation failed (\(Posix.reason(code).lowercased()))"
      }
      return StorageProblem(summary: cause, detail: "\(cause): \(internalDetail)")
    }
  }
}
