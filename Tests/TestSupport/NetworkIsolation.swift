import Foundation

/// A fresh network namespace with only loopback, for a test that could dial an address off the
/// machine: the test re-executes the test binary inside it (`unshare --net --mount
/// --map-root-user`) with `childVariable` set, and the child's suites run only there.
public enum NetworkIsolation {
  /// The variable that marks the child run inside the namespaces.
  public static let childVariable = "ARTWORK_ISOLATED_NETWORK_CHILD"
  /// Whether this process is the child inside the namespaces.
  public static let isChild = ProcessInfo.processInfo.environment[childVariable] == "1"
  /// Inside the namespaces: loopback up with 10.0.0.1 and `publicAddress` on it too, and (in a mount namespace of
  /// its own) an /etc/hosts naming `mixed.test` with a loopback and a private answer and
  /// `loopback.test` with a loopback answer only, and a resolv.conf whose one name server is
  /// 127.0.0.1 with a 5 s timeout (a test that needs an answerless server binds port 53).
  public static let setUp = """
    ip link set lo up && ip addr add 10.0.0.1/32 dev lo && ip addr add 11.22.33.44/32 dev lo \
    && hosts=$(mktemp) && printf '127.0.0.1 localhost\\n127.0.0.1 mixed.test loopback.test\\n\
    10.0.0.1 mixed.test\\n' > "$hosts" && mount --bind "$hosts" /etc/hosts && rm "$hosts" \
    && resolv=$(mktemp) && printf 'nameserver 127.0.0.1\\noptions timeout:5 attempts:1\\n' \
    > "$resolv" && mount --bind "$resolv" /etc/resolv.conf && rm "$resolv"
    """
  /// A globally routable address that `setUp` adds to `lo` inside the namespace, standing in
  /// for a public host: nothing can leave the namespace, so nothing reaches the real one.
  public static let publicAddress = "11.22.33.44"

  /// The command that makes the namespaces.
  public static let unshare = ["/usr/bin/unshare", "--net", "--mount", "--map-root-user"]

  /// Whether this machine can make an isolated namespace (user namespaces, `unshare`, `ip`).
  public static let canIsolate: Bool = {
    guard !isChild else { return false }
    return (try? run(unshare + ["sh", "-c", setUp]))?.status == 0
  }()

  /// Runs a program to its end: its exit status and what it wrote to either stream.
  public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }
}
