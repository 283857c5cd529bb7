internal import CSeccomp

#if canImport(Glibc)
  import Glibc
#endif

/// Locks the calling process down for good: resource limits, then a system-call filter
/// (seccomp, mode 2) on every thread. A worker process calls it once, after its start-up (the
/// libraries loaded, every decoder run once), and before the first untrusted byte.
///
/// Afterwards the process cannot open a file or a socket, start a program, signal another
/// process, or raise its own limits; its data segment and private mappings are capped at the
/// memory limit, so a runaway allocation fails instead of growing.
public enum Sandbox {
  /// Why locking down failed (then the worker must not go on: it would run unconfined).
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public let description: String
  }

  /// What the process may use once locked down.
  public struct Limits: Sendable, Equatable {
    /// Bytes of data segment and private writable mappings (RLIMIT_DATA): the heap, libvips'
    /// buffers, thread stacks.
    public var memoryBytes: Int
    /// The largest file the process may write (RLIMIT_FSIZE): its output, in a shared-memory
    /// file.
    public var fileBytes: Int
    /// The most descriptors it may hold (RLIMIT_NOFILE).
    public var descriptors: Int

    public init(memoryBytes: Int, fileBytes: Int, descriptors: Int = 32) {
      self.memoryBytes = memoryBytes
      self.fileBytes = fileBytes
      self.descriptors = descriptors
    }
  }

  /// Applies `limits` (soft and hard, so they cannot be raised again), no core dumps, then the
  /// filter of `SyscallPolicy`, to the whole process. Throws when any step fails.
  public static func enter(_ limits: Limits) throws(Failure) {
    try limit(RLIMIT_DATA, limits.memoryBytes, "RLIMIT_DATA")
    try limit(RLIMIT_FSIZE, limits.fileBytes, "RLIMIT_FSIZE")
    try limit(RLIMIT_NOFILE, limits.descriptors, "RLIMIT_NOFILE")
    try limit(RLIMIT_CORE, 0, "RLIMIT_CORE")
    // A write past RLIMIT_FSIZE then fails with EFBIG rather than killing the process.
    signal(SIGXFSZ, SIG_IGN)
    try installFilter()
  }

  private static func limit(_ resource: __rlimit_resource, _ value: Int, _ name: String)
    throws(Failure)
  {
    var bound = rlimit(rlim_cur: rlim_t(max(0, value)), rlim_max: rlim_t(max(0, value)))
    guard setrlimit(Int32(resource.rawValue), &bound) == 0 else {
      throw Failure(
        description: "setrlimit(\(name), \(value)): \(String(cString: strerror(errno)))")
    }
  }

  private static func installFilter() throws(Failure) {
    guard let filter = artwork_seccomp_new(EPERM) else {
      throw Failure(description: "seccomp_init failed (is seccomp available to this process?)")
    }
    defer { artwork_seccomp_release(filter) }
    var problems: [String] = []
    func check(_ status: Int32, _ what: String) {
      if status != 0 { problems.append("\(what): \(String(cString: strerror(-status)))") }
    }
    func number(_ name: String) -> Int32? {
      let number = artwork_seccomp_number(name)
      // A name this architecture does not have (`open` exists on x86_64, not on arm64).
      return number >= 0 ? number : nil
    }
    for name in SyscallPolicy.allowed {
      guard let call = number(name) else { continue }
      check(artwork_seccomp_allow(filter, call), name)
    }
    for name in SyscallPolicy.refused {
      guard let call = number(name) else { continue }
      check(artwork_seccomp_fail(filter, call, EACCES), name)
    }
    if let clone = number("clone") {
      check(
        artwork_seccomp_allow_masked(
          filter, clone, 0, SyscallPolicy.cloneThread, SyscallPolicy.cloneThread), "clone")
    }
    // glibc starts threads with clone3 first and falls back to clone on ENOSYS; clone3's flags
    // lie in memory a filter cannot read.
    if let clone3 = number("clone3") {
      check(artwork_seccomp_fail(filter, clone3, ENOSYS), "clone3")
    }
    if let stat = number("newfstatat") {
      check(
        artwork_seccomp_allow_masked(
          filter, stat, 3, SyscallPolicy.atEmptyPath, SyscallPolicy.atEmptyPath), "newfstatat")
    }
    if let statx = number("statx") {
      check(
        artwork_seccomp_allow_masked(
          filter, statx, 2, SyscallPolicy.atEmptyPath, SyscallPolicy.atEmptyPath), "statx")
    }
    if let prctl = number("prctl") {
      for option in SyscallPolicy.prctlOptions {
        check(artwork_seccomp_allow_equal(filter, prctl, 0, option), "prctl")
      }
    }
    // abort() and a thread's own signals: tgkill aimed at this process only.
    if let tgkill = number("tgkill") {
      check(artwork_seccomp_allow_equal(filter, tgkill, 0, UInt64(getpid())), "tgkill")
    }
    // Reading a limit (prlimit64 with no new value, on this process) but never setting one.
    if let prlimit = number("prlimit64") {
      check(artwork_seccomp_allow_equal(filter, prlimit, 2, 0), "prlimit64")
    }
    guard problems.isEmpty else {
      throw Failure(description: "seccomp rules: " + problems.joined(separator: "; "))
    }
    let loaded = artwork_seccomp_load(filter)
    guard loaded == 0 else {
      throw Failure(description: "seccomp_load: \(String(cString: strerror(-loaded)))")
    }
  }
}
