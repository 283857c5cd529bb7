import Foundation

/// What /proc says about a process: how the tests observe worker processes from outside, as an
/// operator would (`/proc/PID/status`, `/proc/PID/limits`).
public enum ProcFS {
  /// The fields of `/proc/PID/status` (`Seccomp` -> `2`); empty when the process is gone.
  public static func status(_ pid: Int32) -> [String: String] {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      return [:]
    }
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[String(line[..<colon])] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    return fields
  }

  /// The process's resident bytes (`VmRSS` of its status; 0 when it is gone).
  public static func residentBytes(_ pid: Int32 = getpid()) -> Int {
    let kilobytes = status(pid)["VmRSS"]?.split(separator: " ").first.flatMap { Int($0) }
    return (kilobytes ?? 0) * 1024
  }

  /// The soft limit of `/proc/PID/limits`' row `name` (`Max data size`), as written there.
  public static func limit(_ pid: Int32, _ name: String) -> String? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8) else {
      return nil
    }
    for line in text.split(separator: "\n") where line.hasPrefix(name) {
      return line.dropFirst(name.count).split(separator: " ").first.map(String.init)
    }
    return nil
  }

  /// The processes whose parent is `parent` and whose command line holds `word`, not zombies.
  public static func children(of parent: Int32, running word: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { Int32($0) }.filter { pid in
      let fields = status(pid)
      guard fields["PPid"] == String(parent), fields["State"]?.hasPrefix("Z") == false else {
        return false
      }
      let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
      return String(decoding: command, as: UTF8.self).contains(word)
    }.sorted()
  }

  /// Whether `pid` is alive and not a zombie.
  public static func isRunning(_ pid: Int32) -> Bool {
    guard let state = status(pid)["State"] else { return false }
    return !state.hasPrefix("Z")
  }
}
