import Foundation
import TestSupport
import Testing

/// The attack as it was tried: with `ARTWORK_PRIVATE_SOURCES=127.0.0.2,jellyfin.lan`, a public
/// URL that answered 302 or 307 to `http://127.0.0.2:80/…` was followed at every fetching entry
/// point, and the result hosted publicly. `Fixtures/private_redirect.py` runs the built
/// `artwork serve`, a public redirector and the LAN host inside a network namespace with only
/// loopback (11.22.33.44 on `lo` standing in for the public host), and sends the redirector's
/// URL to every entry point.
@Suite struct PrivateRedirectTests {
  @Test(.enabled(if: NetworkIsolation.canIsolate, "needs unshare --net and ip"))
  func aPublicRedirectReachesNoAllowedLANHostAtAnyEntryPoint() async throws {
    let script = Repository.root
      .appendingPathComponent("Tests/ServiceTests/URLSources/Fixtures/private_redirect.py").path
    let run = try await DeploymentTools.run(
      NetworkIsolation.unshare[0],
      Array(NetworkIsolation.unshare.dropFirst()) + [
        "sh", "-c",
        "ip link set lo up && ip addr add \(NetworkIsolation.publicAddress)/32 dev lo"
          + " && exec python3 \"$0\" \"$1\" \"$2\"",
        script, ServiceProcess.executable.path, Repository.root.path,
      ], timeout: .seconds(300))
    let line = run.output.split(separator: "\n").last { $0.hasPrefix("{") } ?? ""
    let result = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      "\(run.output.suffix(2000))\n\(run.error.suffix(2000))")
    let answers = try #require(result["answers"] as? [String: [String: Any]])
    for status in [302, 307] {
      for route in ["artwork", "thumbhash", "content"] {
        let answer = answers["\(route)-\(status)"] ?? [:]
        #expect(answer["status"] as? Int == 403, "\(route) \(status): \(answer)")
        #expect(
          (answer["body"] as? String)?.contains("allows only as the URL a caller sent") == true,
          "\(route) \(status): \(answer)")
      }
      for provider in ["overseerr", "radarr", "sonarr", "jellyfin"] {
        let answer = answers["\(provider)-\(status)"] ?? [:]
        #expect(answer["status"] as? Int == 200)
        #expect(
          answer["artwork_status"] as? String == #"failed; reason="forbidden-address""#,
          "\(provider) \(status): \(answer)")
      }
      // The check judges as a phone: not ok, and the LAN host is never asked.
      let check = answers["check-\(status)"] ?? [:]
      #expect(
        check["status"] as? Int == 200
          && (check["body"] as? String)?.contains(#""ok":false"#) == true)
    }
    // Named by the caller, the LAN host is fetched: its one request.
    #expect(answers["named"]?["status"] as? Int == 201, "\(answers["named"] ?? [:])")
    #expect(result["lan_requests"] as? [String] == ["/named.png"], "\(result)")
  }
}
