#if canImport(Glibc)
  import Glibc
#endif

/// The system calls a locked-down worker may make: what decoding, framing and encoding in memory
/// need, and nothing that reaches outside the process. Everything not listed fails with `EPERM`
/// (a denied call returns an error; the process goes on), and the calls that would open a file,
/// a socket or start a program fail with `EACCES`.
///
/// The list was taken from what the worker does after its start-up (`strace -f` over every
/// accepted format and option), and is deliberately short: a decoder exploit that takes control
/// of a worker can compute, and write to the descriptors the worker already holds (its socket to
/// the service, its two shared-memory files, its standard error), and do nothing else.
enum SyscallPolicy {
  /// Allowed whatever their arguments: memory, threads' synchronisation, time, signals, and I/O
  /// on descriptors already open (none of these can name a file or an address).
  static let allowed = [
    "read", "write", "readv", "writev", "pread64", "pwrite64", "lseek", "close", "fstat",
    "fcntl", "ftruncate", "poll", "ppoll", "recvmsg", "sendmsg", "recvfrom", "sendto",
    "mmap", "munmap", "mremap", "mprotect", "madvise", "brk",
    "futex", "set_robust_list", "get_robust_list", "rseq", "set_tid_address", "sched_yield",
    "sched_getaffinity", "getrandom", "eventfd2", "pipe2",
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "restart_syscall",
    "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time",
    "getrusage", "times", "sysinfo", "uname", "getcwd",
    "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid",
    "exit", "exit_group",
  ]

  /// Calls that would reach outside the process: denied with `EACCES`, so that whoever tries
  /// reads a plain "permission denied".
  static let refused = [
    "open", "openat", "openat2", "creat", "socket", "socketpair", "connect", "bind", "listen",
    "accept", "accept4", "execve", "execveat", "fork", "vfork", "ptrace", "process_vm_readv",
    "process_vm_writev", "kill", "tkill", "memfd_create", "unlink", "unlinkat", "rename",
    "renameat", "renameat2", "mkdir", "mkdirat", "link", "linkat", "symlink", "symlinkat",
    "chmod", "fchmod", "fchmodat", "chown", "fchown", "fchownat", "truncate", "mknod",
    "mknodat", "mount", "umount2", "chdir", "fchdir", "chroot", "setuid", "setgid",
    "io_uring_setup", "bpf", "perf_event_open", "userfaultfd", "ioctl",
  ]

  /// `clone` creates a process unless CLONE_THREAD is set: threads only.
  static let cloneThread: UInt64 = 0x0001_0000

  /// `AT_EMPTY_PATH` (0x1000): `newfstatat` and `statx` on a descriptor (glibc's `fstat`),
  /// never on a path.
  static let atEmptyPath: UInt64 = 0x1000

  /// `prctl` options allowed: naming a thread and reading its name (glib names its threads).
  static let prctlOptions: [UInt64] = [15, 16]  // PR_SET_NAME, PR_GET_NAME
}
