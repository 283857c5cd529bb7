// The Containment target's one C door: libseccomp, whose rule calls are variadic and whose
// comparisons are macros. Each wrapper answers 0 or a negative errno, as libseccomp does.
#ifndef ARTWORK_SECCOMP_H
#define ARTWORK_SECCOMP_H
#include <errno.h>
#include <stddef.h>
#include <seccomp.h>
#include <stdint.h>

/// A filter under construction whose default answer to any system call not allowed is the
/// error `denied_errno` (the call fails; the process goes on). NULL when libseccomp cannot
/// start one.
static inline scmp_filter_ctx artwork_seccomp_new(int denied_errno) {
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ERRNO((uint32_t)denied_errno));
  if (filter == NULL) return NULL;
  // Every thread of the process gets the filter, not only the calling one (libvips' threads
  // exist already), and no later execve can gain privileges.
  if (seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1) != 0 ||
      seccomp_attr_set(filter, SCMP_FLTATR_CTL_NNP, 1) != 0) {
    seccomp_release(filter);
    return NULL;
  }
  return filter;
}

/// The number of the system call `name` on this architecture, or a negative number.
static inline int artwork_seccomp_number(const char *name) {
  return seccomp_syscall_resolve_name(name);
}

/// Allows `syscall` whatever its arguments.
static inline int artwork_seccomp_allow(scmp_filter_ctx filter, int syscall) {
  return seccomp_rule_add(filter, SCMP_ACT_ALLOW, syscall, 0);
}

/// Allows `syscall` when its argument `arg` (0-5) equals `value`.
static inline int artwork_seccomp_allow_equal(scmp_filter_ctx filter, int syscall,
                                              unsigned int arg, uint64_t value) {
  return seccomp_rule_add(filter, SCMP_ACT_ALLOW, syscall, 1,
                          SCMP_CMP(arg, SCMP_CMP_EQ, value));
}

/// Allows `syscall` when the bits `mask` of its argument `arg` equal `value`.
static inline int artwork_seccomp_allow_masked(scmp_filter_ctx filter, int syscall,
                                               unsigned int arg, uint64_t mask,
                                               uint64_t value) {
  return seccomp_rule_add(filter, SCMP_ACT_ALLOW, syscall, 1,
                          SCMP_CMP(arg, SCMP_CMP_MASKED_EQ, mask, value));
}

/// Answers `syscall` with the error `error_number` whatever its arguments (for calls whose
/// callers read one error as "try another way", such as clone3's ENOSYS).
static inline int artwork_seccomp_fail(scmp_filter_ctx filter, int syscall, int error_number) {
  return seccomp_rule_add(filter, SCMP_ACT_ERRNO((uint32_t)error_number), syscall, 0);
}

/// Installs the filter in the kernel, for every thread; from then on it cannot be lifted.
static inline int artwork_seccomp_load(scmp_filter_ctx filter) { return seccomp_load(filter); }

static inline void artwork_seccomp_release(scmp_filter_ctx filter) { seccomp_release(filter); }
#endif
