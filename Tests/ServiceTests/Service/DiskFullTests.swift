import Foundation
import Glibc
import TestSupport
import Testing

@testable import ArtworkService
@testable import Storage

/// A small tmpfs mounted for the test, so "disk full" is the real thing: the kernel's own
/// ENOSPC and a real free-space figure.
struct SmallFilesystem {
  let path: String

  /// Whether this process may mount a tmpfs (root in a mount namespace of its own, or CI).
  static let canMount: Bool = {
    guard let mount = try? SmallFilesystem(bytes: 1 << 20) else { return false }
    mount.unmount()
    return true
  }()

  init(bytes: Int) throws {
    path = FileManager.default.temporaryDirectory.path + "/artwork-tmpfs-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let status = Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", path])
    guard status == 0 else {
      try? FileManager.default.removeItem(atPath: path)
      throw CocoaError(.fileWriteNoPermission)
    }
  }

  func unmount() {
    _ = Self.run("/bin/umount", [path])
    try? FileManager.default.removeItem(atPath: path)
  }

  /// Bytes still free for a writer.
  var freeBytes: Int {
    var info = statvfs()
    guard statvfs(path, &info) == 0 else { return 0 }
    return Int(info.f_bavail) * Int(info.f_frsize)
  }

  /// Grows (or creates) a filler file until `leaving` bytes are free, give or take a page.
  func fill(leaving: Int) throws {
    let filler = path + "/filler"
    let current = (try? FileManager.default.attributesOfItem(atPath: filler)[.size] as? Int) ?? 0
    let target = current + freeBytes - leaving
    if !FileManager.default.fileExists(atPath: filler) {
      _ = FileManager.default.createFile(atPath: filler, contents: nil)
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: filler))
    defer { try? handle.close() }
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(count: max(0, target)))
  }

  private static func run(_ program: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
  }
}

@Suite(
  .enabled(
    if: SmallFilesystem.canMount,
    "needs to mount a tmpfs (run as root, or in a user and mount namespace: unshare -rm)"),
  .serialized)
struct DiskFullTests {
  static func files(under directory: String) -> [String] {
    (FileManager.default.subpaths(atPath: directory) ?? []).filter { path in
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(
        atPath: directory + "/" + path, isDirectory: &isDirectory)
      return exists && !isDirectory.boolValue
    }
  }

  /// Below the free-space margin the service refuses a new image with 507 and no Retry-After,
  /// `/readyz` turns 503 saying the filesystem is nearly full, no answer names a path, and
  /// nothing half-written stays. An image stored before is still served.
  @Test func theMarginRefusesNewImagesAndReadinessSaysSo() async throws {
    let disk = try SmallFilesystem(bytes: 8 << 20)
    defer { disk.unmount() }
    let data = disk.path + "/data"
    try await ServiceHarness.run([
      "ARTWORK_STORAGE": data, "ARTWORK_MIN_FREE_BYTES": "3000000",
    ]) { service in
      #expect(try await service.get("/readyz").status == 200)
      let image = Fixtures.bytes("coffee.jpg")
      try disk.fill(leaving: 3_600_000)
      let stored = try await service.upload(image, fields: [("size", "256")])
      #expect(stored.status == 201, "\(stored.text)")
      #expect(try await service.get("/readyz").status == 200)

      try disk.fill(leaving: 2_500_000)
      let refused = try await service.upload(image, fields: [("size", "300")])
      #expect(refused.status == 507, "\(refused.text)")
      #expect(refused.header("Content-Type") == "application/problem+json")
      #expect(refused.header("Retry-After") == nil)
      expectProblem(refused, 507)
      #expect(refused.object["type"] as? String == "urn:artwork:problem:insufficient-storage")
      #expect(!refused.text.contains(disk.path))

      let ready = try await service.get("/readyz")
      #expect(ready.status == 503)
      #expect(ready.text.contains("nearly full"), "\(ready.text)")
      #expect(!ready.text.contains(disk.path), "\(ready.text)")

      // What was stored before still serves; nothing half-written is anywhere.
      let path = try #require(stored.path(ofURLIn: "image_url"))
      #expect(try await service.get(path).status == 200)
      #expect(Self.files(under: data + "/tmp").isEmpty)
      #expect(Self.files(under: data + "/objects").count == 1)
    }
  }

  /// With no margin the filesystem itself runs out: the write's ENOSPC is the same 507, and
  /// the partial temp file is gone.
  @Test func aWriteThatRunsOutOfSpaceIs507() async throws {
    let disk = try SmallFilesystem(bytes: 4 << 20)
    defer { disk.unmount() }
    let data = disk.path + "/data"
    try await ServiceHarness.run([
      "ARTWORK_STORAGE": data, "ARTWORK_MIN_FREE_BYTES": "0",
    ]) { service in
      try disk.fill(leaving: 8192)
      let refused = try await service.upload(
        Fixtures.bytes("coffee.jpg"), type: "image/jpeg", fields: [("size", "1200")])
      #expect(refused.status == 507, "\(refused.text)")
      #expect(refused.header("Retry-After") == nil)
      #expect(!refused.text.contains(disk.path))
      #expect(Self.files(under: data + "/tmp").isEmpty)
      #expect(Self.files(under: data + "/objects").isEmpty)
    }
  }
}
