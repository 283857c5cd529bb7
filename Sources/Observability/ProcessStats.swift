import Foundation

/// What the kernel says about this process, for the standard `process_*` metrics: resident and
/// virtual memory, CPU seconds, open and allowed file descriptors, start time. Read from
/// `/proc/self` at each scrape (a few small reads).
public struct ProcessStats: Sendable, Equatable {
  /// Resident memory, in bytes.
  public var residentBytes: Double = 0
  /// Virtual memory, in bytes.
  public var virtualBytes: Double = 0
  /// User and system CPU time, in seconds.
  public var cpuSeconds: Double = 0
  /// File descriptors open.
  public var openDescriptors: Double = 0
  /// The soft limit of open file descriptors.
  public var maxDescriptors: Double = 0
  /// When the process started, in seconds since 1970.
  public var startTime: Double = 0

  /// The stats now; a value that cannot be read stays 0.
  public static func current() -> ProcessStats {
    var stats = ProcessStats()
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    let page = Double(sysconf(Int32(_SC_PAGESIZE)))
    if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
      let fields = Self.statFields(stat)
    {
      // proc(5): utime 14, stime 15, starttime 22, vsize 23, rss 24 (1-based, whole line).
      stats.cpuSeconds = ((fields.number(14) ?? 0) + (fields.number(15) ?? 0)) / ticks
      stats.virtualBytes = fields.number(23) ?? 0
      stats.residentBytes = (fields.number(24) ?? 0) * page
      if let started = fields.number(22), let boot = Self.bootTime() {
        stats.startTime = boot + started / ticks
      }
    }
    stats.openDescriptors = Double(
      (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 0)
    var limit = rlimit()
    if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
      stats.maxDescriptors = Double(limit.rlim_cur)
    }
    return stats
  }

  /// The fields of `/proc/self/stat` after the command name (which may hold spaces and
  /// parentheses, so the line is split after its last `)`), numbered as proc(5) numbers them.
  static func statFields(_ line: String) -> StatFields? {
    guard let close = line.lastIndex(of: ")") else { return nil }
    let rest = line[line.index(after: close)...].split(separator: " ")
    return StatFields(afterName: rest.map(String.init))
  }

  /// Fields 3 onwards of `/proc/self/stat`.
  struct StatFields {
    let afterName: [String]

    /// Field `number` (1-based, as in proc(5)) as a number.
    func number(_ number: Int) -> Double? {
      let index = number - 3
      guard afterName.indices.contains(index) else { return nil }
      return Double(afterName[index])
    }
  }

  /// When the machine booted, in seconds since 1970 (`btime` in `/proc/stat`).
  private static func bootTime() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
      return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
    }
    return nil
  }
}
