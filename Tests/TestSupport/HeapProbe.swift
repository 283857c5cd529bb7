import Glibc

/// A freed block inside this process's heap, touched and not yet given back: what a request
/// body is once freed among the service's other allocations. Three blocks of `size` are taken
/// and touched, and the middle one by address freed: its neighbours stay allocated, so it
/// cannot merge into the top of the heap (which glibc gives back only from the main heap,
/// docs/development.md) and lies in the heap's free lists, where a trim finds it.
public final class HeapProbe {
  /// Resident bytes with all three blocks touched.
  public let touched: Int
  public let size: Int
  private var kept: [UnsafeMutableRawPointer]

  public init(size: Int = 8 << 20) {
    self.size = size
    var blocks = (0..<3).map { _ in UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    }
    for block in blocks { memset(block, 1, size) }
    touched = ProcFS.residentBytes()
    blocks.sort { $0 < $1 }
    blocks[1].deallocate()
    kept = [blocks[0], blocks[2]]
  }

  deinit { for block in kept { block.deallocate() } }

  /// Whether the freed block's pages are still resident (more than half of them).
  public var freedPagesResident: Bool { ProcFS.residentBytes() > touched - size / 2 }
}
