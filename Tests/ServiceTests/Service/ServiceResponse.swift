import Foundation
import TestSupport
import Testing

/// Reading and checking the service's answers in tests.
extension LoopbackHTTPResponse {
  /// The body parsed as a JSON object (empty when it is not one).
  var object: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
  }

  /// The path of a URL in the JSON answer's `key` (`image_url`), for a request to this server.
  func path(ofURLIn key: String) -> String? {
    guard let text = object[key] as? String, let url = URL(string: text) else { return nil }
    return url.path
  }

  /// Where each of `keys` first appears in the raw body, to check the order of members.
  func positions(of keys: [String]) -> [Int] {
    keys.map { key in
      text.range(of: "\"\(key)\":").map { text.distance(from: text.startIndex, to: $0.lowerBound) }
        ?? -1
    }
  }
}

/// Checks that `response` is an RFC 9457 problem with `status` and all four members.
func expectProblem(
  _ response: LoopbackHTTPResponse, _ status: Int, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
  #expect(
    response.header("Content-Type")?.hasPrefix("application/problem+json") == true,
    sourceLocation: sourceLocation)
  let object = response.object
  #expect(object["type"] is String, sourceLocation: sourceLocation)
  #expect(object["title"] is String, sourceLocation: sourceLocation)
  #expect((object["status"] as? Int) == status, sourceLocation: sourceLocation)
  #expect(object["detail"] is String, sourceLocation: sourceLocation)
}
