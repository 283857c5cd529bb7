import Foundation
import TestSupport

@testable import ArtworkService

/// The control-port routes origin.py has beyond `/counts`: per-target counters, the mutable
/// image's version and the held route's release.
extension OriginServer {
  /// Requests per full target (path and query), and conditional ones (`If-None-Match`).
  func targets() throws -> (requests: [String: Int], conditionals: [String: Int]) {
    let json = try askControl("/counts")
    return (
      json["targets"] as? [String: Int] ?? [:], json["conditionals"] as? [String: Int] ?? [:]
    )
  }

  /// Requests the origin has seen for `target` (path and query).
  func requests(_ target: String) throws -> Int { try targets().requests[target] ?? 0 }

  /// Makes `/mutable.png` serve version `version` (new bytes, new ETag).
  func setMutable(version: Int) throws { _ = try askControl("/mutable?version=\(version)") }

  /// Lets every request held on `/held.png` be answered.
  func release() throws { _ = try askControl("/release") }

  /// The body the origin's plain-http listener answers for `target`.
  func body(_ target: String) throws -> [UInt8] { try get(port: http, target) }

  private func askControl(_ target: String) throws -> [String: Any] {
    let body = try get(port: control, target)
    return try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
  }
}
