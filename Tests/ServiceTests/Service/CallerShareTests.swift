import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ArtworkService

/// Two callers, one flooding: the other keeps its share of the workers, of their admissions and
/// of the fetch threads (`WorkShare`, `BlockingPool`), and the flood's refusals are counted
/// under its name.
@Suite(.serialized) struct CallerShareTests {
  static let alpha = "alpha-token-0123456789abcdef"
  static let beta = "beta-token-0123456789abcdef"

  static func service(_ extra: [String: String] = [:]) async throws -> RunningArtwork {
    var environment = [
      "ARTWORK_API_TOKENS": "alpha:\(alpha),beta:\(beta)",
      "ARTWORK_PRIVATE_SOURCES": "127.0.0.1/32", "ARTWORK_WORKERS": "2", "ARTWORK_QUEUE": "16",
    ]
    environment.merge(extra) { $1 }
    return try await RunningArtwork(environment)
  }

  static func upload(_ service: RunningArtwork, token: String) async throws
    -> LoopbackHTTPResponse
  {
    try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/artwork?size=96&shape=square",
        headers: [("Content-Type", "image/jpeg"), ("Authorization", "Bearer \(token)")],
        body: .bytes(Fixtures.bytes("coffee.jpg"))))
  }

  /// Counts of answers by status.
  final class Tally: Sendable {
    private let counts = Mutex<[Int: Int]>([:])
    func add(_ status: Int) { counts.withLock { $0[status, default: 0] += 1 } }
    subscript(status: Int) -> Int { counts.withLock { $0[status, default: 0] } }
    var all: [Int: Int] { counts.withLock { $0 } }
  }

  @Test func aFloodOfUploadsLeavesTheOtherCallerItsShare() async throws {
    let service = try await Self.service()
    let flood = Tally()
    let stop = Tally()
    // Alpha: 20 uploads in flight at all times, more than the workers, their queue and its
    // own share of the admissions can take.
    let alpha = Task {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<20 {
          group.addTask {
            while stop[1] == 0 {
              guard let answer = try? await Self.upload(service, token: Self.alpha) else {
                continue
              }
              flood.add(answer.status)
              if answer.status != 201 { try? await Task.sleep(for: .milliseconds(20)) }
            }
          }
        }
      }
    }
    while flood[201] < 10 { try await Task.sleep(for: .milliseconds(20)) }
    let floodBefore = flood[201]
    // Beta: four at a time, forty in all.
    let other = Tally()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<10 {
            let answer = try? await Self.upload(service, token: Self.beta)
            other.add(answer?.status ?? 0)
          }
        }
      }
    }
    let floodDuring = flood[201] - floodBefore
    stop.add(1)
    await alpha.value
    #expect(other.all == [201: 40], "beta: \(other.all); alpha: \(flood.all)")
    // Served in turns: beta's four get as many workers as alpha's twenty (about half); a FIFO
    // queue gave it one place in five.
    let share = Double(other[201]) / Double(other[201] + floodDuring)
    #expect(share >= 0.35, "beta's share \(share): 40 against \(floodDuring); alpha \(flood.all)")
    #expect(flood[503] > 0, "alpha was never refused: \(flood.all)")
    let metrics = try await service.get("/metrics")
    // Both callers are listed from the start; only alpha was refused.
    let refused = MetricsText(metrics.text).nonZero("artwork_caller_refusals_total")
    #expect(refused.map { $0.labels["caller"] } == ["alpha"], "\(metrics.text)")
    #expect(metrics.text.contains(#"artwork_caller_refusals_total{caller="beta"} 0"#))
    await service.stop()
  }

  @Test func slowSourcesOfOneCallerLeaveTheOtherItsFetches() async throws {
    let service = try await Self.service(["ARTWORK_FETCH_THREADS": "8"])
    // Alpha: ten sources that take 5 s each, more than the eight fetch threads.
    let slow = Task {
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<10 {
          group.addTask {
            let url = try? URLSourceFixture.url(
              "/slow.jpg" + URLSourceFixture.unique() + "-\(index)&delay=5")
            _ = try? await service.send(
              LoopbackHTTPRequest(
                "POST", "/v1/artwork",
                headers: [
                  ("Content-Type", "application/json"), ("Authorization", "Bearer \(Self.alpha)"),
                ], body: .bytes(Array(#"{"url":"\#(url ?? "")"}"#.utf8))))
          }
        }
      }
    }
    try await Task.sleep(for: .milliseconds(500))
    // Beta's content, waiting at most 4 s, gets its artwork: a fetch thread is left for it.
    let url = try URLSourceFixture.url("/image.jpg" + URLSourceFixture.unique())
    let content = try await service.send(
      LoopbackHTTPRequest(
        "POST", "/v1/content?size=96",
        headers: [
          ("Content-Type", "application/json"), ("Authorization", "Bearer \(Self.beta)"),
          ("Prefer", "wait=4"),
        ], body: .bytes(Array(#"{"image_url":"\#(url)"}"#.utf8))))
    #expect(content.status == 200, "\(content.text)")
    #expect(content.header("Artwork-Status") == "ready", "\(content.text)")
    await slow.value
    await service.stop()
  }
}
