import Foundation
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

extension ReplicaSuites {
  /// A store that refuses the credentials or goes away: clear answers, no hangs, and recovery
  /// without a restart of the service.
  @Suite(.seaweedFS) struct StoreOutageTests {
    @Test func refusedCredentialsMakeReadyzSaySo() async throws {
      let service = try await RunningArtwork(
        try Replica.environment(prefix: "wrong-credentials", secretKey: "not-the-secret"))
      let ready = try await service.get("/readyz")
      #expect(ready.isProblem(503), "\(ready.status) \(ready.text)")
      #expect(ready.string("detail")?.contains("credentials were refused") == true, "\(ready.text)")
      #expect(!ready.text.contains("not-the-secret"))
      await service.stop()
    }

    @Test func bothReplicasRideOutAStoreOutage() async throws {
      let store = try SeaweedFSScope.server
      let (one, other) = try await Replica.pair()
      var acknowledged: [String] = []
      for size in [100, 101] {
        let created = try await Replica.upload(size == 100 ? one : other, size: size)
        #expect(created.status == 201, "\(created.text)")
        acknowledged.append(try #require(created.imagePath))
      }
      // Served once before the outage, so nothing below depends on a cold read.
      #expect(try await other.get(acknowledged[0]).status == 200)

      await store.stop()
      let refused = try await Replica.upload(one, size: 102)
      #expect(refused.isProblem(503), "\(refused.status) \(refused.text)")
      #expect(refused.header("Retry-After") != nil)
      // An image served recently is still answered from the replica's memory meanwhile.
      #expect(try await other.get(acknowledged[0]).status == 200)
      for service in [one, other] {
        let image = try await service.get(acknowledged[1])
        #expect((500...599).contains(image.status), "\(image.status) \(image.text)")
        #expect(image.isProblem(image.status), "\(image.text)")
        let ready = try await service.get("/readyz")
        #expect(ready.isProblem(503), "\(ready.text)")
        let detail = ready.string("detail") ?? ""
        // The endpoint is an internal address: the operator finds it in the log, not clients.
        #expect(detail.contains("S3 endpoint") && !detail.contains(store.endpoint), "\(detail)")
      }
      #expect(try await one.get("/healthz").status == 200)

      try await store.restart()
      for service in [one, other] {
        var status = 0
        for _ in 0..<120 where status != 200 {
          status = try await service.get("/readyz").status
          if status != 200 { try await Task.sleep(for: .milliseconds(250)) }
        }
        #expect(status == 200)
      }
      let after = try await Replica.upload(other, size: 103)
      #expect(after.status == 201, "\(after.text)")
      acknowledged.append(try #require(after.imagePath))
      for service in [one, other] {
        for path in acknowledged {
          let image = try await service.get(path)
          #expect(image.status == 200, "\(path): \(image.status) \(image.text)")
        }
      }
      await one.stop()
      await other.stop()
    }
  }
}
