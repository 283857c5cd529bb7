import Foundation
import TestSupport
import Testing

/// Near `ARTWORK_MAX_CONNECTIONS` (nine tenths of it) hosted images keep being served while an
/// upload is refused from its head, met by the clients relays and phones use: curl without
/// `Expect`, Python's urllib and Node's fetch.
@Suite(.serialized) struct CrowdedServiceTests {
  static let limit = 20

  @Test func hostedImagesAreServedAndUploadsRefusedNearTheLimit() async throws {
    try await ServiceHarness.run(["ARTWORK_MAX_CONNECTIONS": String(Self.limit)]) { service in
      let poster = Fixtures.path("coffee.jpg")
      let base = "http://127.0.0.1:\(service.port)"
      let upload = try await ServiceProcess.runProgram(
        "curl",
        [
          "-s", "-H", "Expect:", "-H", "Content-Type: image/jpeg", "--data-binary", "@\(poster)",
          "\(base)/v1/artwork?shape=poster&size=400",
        ])
      let answer = try JSONSerialization.jsonObject(with: Data(upload.output.utf8))
      let url = try #require((answer as? [String: Any])?["image_url"] as? String)
      let path = String(url[try #require(url.range(of: "/v1/images/")).lowerBound...])

      // Another client holds idle keep-alive connections up to the mark (18 of 20), and the
      // clients below bring it over.
      var held: [LoopbackHTTPClient] = []
      for _ in 0..<(Self.limit - Self.limit / 10 - 1) {
        let client = try await LoopbackHTTPClient(port: service.port, source: "127.0.0.2")
        #expect(try await client.send(.init("GET", "/healthz")).status == 200)
        held.append(client)
      }

      let refused = try await ServiceProcess.runProgram(
        "curl",
        [
          "-s", "-i", "-H", "Expect:", "-H", "Content-Type: image/jpeg", "--data-binary",
          "@\(poster)", "\(base)/v1/artwork?shape=poster&size=400",
        ])
      #expect(refused.output.hasPrefix("HTTP/1.1 503"), "\(refused.output.prefix(300))")
      #expect(refused.output.lowercased().contains("content-type: application/problem+json"))
      #expect(refused.output.lowercased().contains("retry-after: "))
      #expect(refused.output.contains("\"request_id\""))
      #expect(refused.output.contains("ARTWORK_MAX_CONNECTIONS"))

      let python = try await ServiceProcess.runProgram(
        "python3",
        [
          "-c",
          """
          import sys, urllib.request, urllib.error
          with urllib.request.urlopen(sys.argv[1] + sys.argv[2]) as r:
              print(r.status, r.headers["Content-Type"], len(r.read()))
          data = open(sys.argv[3], "rb").read()
          request = urllib.request.Request(sys.argv[1] + "/v1/artwork?shape=poster", data=data,
                                           headers={"Content-Type": "image/jpeg"})
          try:
              urllib.request.urlopen(request)
          except urllib.error.HTTPError as e:
              print(e.code, e.headers["Content-Type"])
          """,
          base, path, poster,
        ])
      #expect(python.status == 0, "\(python.error)")
      let lines = python.output.split(separator: "\n")
      #expect(lines.first?.hasPrefix("200 image/jpeg ") == true, "\(python.output)")
      #expect(lines.last == "503 application/problem+json", "\(python.output)")

      if ServiceProcess.which("node") != nil {
        let node = try await ServiceProcess.runProgram(
          "node",
          [
            "-e",
            """
            const r = await fetch(process.argv[1] + process.argv[2]);
            const body = await r.arrayBuffer();
            console.log(r.status, r.headers.get("content-type"), body.byteLength > 0);
            """,
            "--input-type=module", base, path,
          ])
        #expect(node.output.hasPrefix("200 image/jpeg true"), "\(node.output) \(node.error)")
      }

      // Below the mark again, an upload is taken.
      for client in held { client.close() }
      var status = 0
      for _ in 0..<50 where !(200..<300).contains(status) {
        let again = try await ServiceProcess.runProgram(
          "curl",
          [
            "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Expect:", "-H",
            "Content-Type: image/jpeg", "--data-binary", "@\(poster)",
            "\(base)/v1/artwork?shape=poster&size=400",
          ])
        status = Int(again.output) ?? 0
        if !(200..<300).contains(status) { try await Task.sleep(for: .milliseconds(50)) }
      }
      #expect((200..<300).contains(status), "\(status)")
    }
  }
}
