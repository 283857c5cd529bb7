// The worker targets' one C door (WorkerProtocol's memory files, WorkerHost's spawn and reaping,
// ImageWorker's main loop): the Linux calls around a worker process that the Swift module of the
// C library does not offer (it is built without _GNU_SOURCE) or offers only variadically (prctl,
// syscall).
#ifndef ARTWORK_PROCESS_H
#define ARTWORK_PROCESS_H
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#endif

/// An anonymous in-memory file, closed on exec (the service hands it to a worker explicitly);
/// -1 with errno set on failure.
static inline int artwork_process_memfd(const char *name) {
  return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC);
}

/// A pipe whose ends are closed on exec and whose reads never block (the service's end of a
/// worker's standard error); 0, or -1 with errno set.
static inline int artwork_process_pipe(int ends[2]) {
  return pipe2(ends, O_CLOEXEC | O_NONBLOCK);
}

/// Closes every descriptor from `lowest` up: a new worker keeps only those it was given.
static inline int artwork_process_close_from(unsigned int lowest) {
  return (int)syscall(SYS_close_range, lowest, ~0U, 0);
}

/// Asks the kernel to kill this process when its parent (the service) dies; answers whether
/// the parent is still the one expected (it may have died before the request took effect).
static inline int artwork_process_die_with_parent(pid_t parent) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return 0;
  return getppid() == parent;
}

/// Names the calling thread (`comm` in /proc, 15 bytes kept).
static inline void artwork_process_set_name(const char *name) {
  prctl(PR_SET_NAME, name, 0, 0, 0);
}

/// Waits for `pid` to end: its status as waitpid gives it, the most memory it held
/// (ru_maxrss, in KiB) and the CPU time it used (ru_utime + ru_stime, every thread, in
/// microseconds). -1 on failure.
static inline pid_t artwork_process_wait(pid_t pid, int *status, long *max_rss_kib,
                                         int64_t *cpu_us) {
  struct rusage usage = {0};
  pid_t done;
  do {
    done = wait4(pid, status, 0, &usage);
  } while (done < 0 && errno == EINTR);
  *max_rss_kib = usage.ru_maxrss;
  *cpu_us = (int64_t)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000 +
            (int64_t)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  return done;
}

/// The CPU time (user and system, every thread) the living process `pid` has used so far, in
/// microseconds, from its CPU-time clock; -1 when it cannot be read.
static inline int64_t artwork_process_cpu_us(pid_t pid) {
  clockid_t clock;
  struct timespec now;
  if (clock_getcpuclockid(pid, &clock) != 0) return -1;
  if (clock_gettime(clock, &now) != 0) return -1;
  return (int64_t)now.tv_sec * 1000000 + (int64_t)now.tv_nsec / 1000;
}

static inline int artwork_process_exited(int status) { return WIFEXITED(status); }
static inline int artwork_process_exit_code(int status) { return WEXITSTATUS(status); }
static inline int artwork_process_signalled(int status) { return WIFSIGNALED(status); }
static inline int artwork_process_signal(int status) { return WTERMSIG(status); }

/// Gives a process's freed heap back to the system (glibc's malloc_trim).
static inline void artwork_process_trim_heap(void) {
  malloc_trim(0);
}

/// Makes glibc serve allocations below `mapped` bytes from its heap, and keep up to `kept` bytes
/// free at a heap's top rather than give them back at once (both fixed: glibc no longer moves
/// them on its own). Freed request bodies are then reused by the next ones, pages and all;
/// `artwork_process_trim_heap` gives the free heap back.
static inline void artwork_process_keep_freed_heap(int mapped, int kept) {
  mallopt(M_MMAP_THRESHOLD, mapped);
  mallopt(M_TRIM_THRESHOLD, kept);
}

/// Bytes of heap glibc holds free (not returned to the system): what a trim would give back.
static inline size_t artwork_process_free_heap_bytes(void) {
  struct mallinfo2 info = mallinfo2();
  return info.fordblks;
}

/// Whether `descriptor` has something to read (or was closed) within `milliseconds`.
static inline int artwork_process_readable(int descriptor, int milliseconds) {
  struct pollfd target = {descriptor, POLLIN, 0};
  int ready;
  do {
    ready = poll(&target, 1, milliseconds);
  } while (ready < 0 && errno == EINTR);
  return ready != 0;
}
#endif
