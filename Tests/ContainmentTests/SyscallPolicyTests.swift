import Testing

@testable import Containment

/// The allow-list's own rules. That a worker under it is really refused (a file, a socket, a
/// program, a signal) is tried by the workers' containment probe (ImageWorkerTests).
@Suite struct SyscallPolicyTests {
  @Test func noCallIsBothAllowedAndRefused() {
    #expect(Set(SyscallPolicy.allowed).isDisjoint(with: SyscallPolicy.refused))
    #expect(Set(SyscallPolicy.allowed).count == SyscallPolicy.allowed.count)
  }

  @Test func nothingThatReachesOutsideTheProcessIsAllowed() {
    let outside = [
      "open", "openat", "socket", "connect", "execve", "fork", "vfork", "kill", "ptrace",
      "unlink", "mount", "ioctl", "memfd_create",
    ]
    for name in outside { #expect(!SyscallPolicy.allowed.contains(name), "\(name) is allowed") }
    #expect(Set(outside).isSubset(of: SyscallPolicy.refused))
  }

  @Test func limitsAreKeptAsGiven() {
    let limits = Sandbox.Limits(memoryBytes: 1 << 30, fileBytes: 1 << 20)
    #expect(limits.descriptors == 32)
    #expect(limits != Sandbox.Limits(memoryBytes: 1 << 30, fileBytes: 1 << 20, descriptors: 8))
  }
}
