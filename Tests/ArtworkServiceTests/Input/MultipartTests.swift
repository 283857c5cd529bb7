import Glibc
import TestSupport
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// Builds a multipart body from raw text pieces joined with CRLF.
private func body(_ lines: [String]) -> [UInt8] {
  Array(lines.joined(separator: "\r\n").utf8)
}

private func parseError(_ bytes: [UInt8], _ contentType: String) -> ArtworkError? {
  do {
    _ = try Multipart.parse(body: bytes, contentType: contentType)
    return nil
  } catch {
    return error
  }
}

@Suite struct MultipartTests {
  @Test func parsesFieldsAndAFile() throws {
    let bytes = body([
      "preamble to ignore",
      "--XyZ",
      #"Content-Disposition: form-data; name="shape""#,
      "",
      "poster",
      "--XyZ",
      #"content-disposition: form-data; name="image"; filename="my \"best\" poster.jpg""#,
      "Content-Type: image/jpeg ",
      "",
      "JPEGDATA",
      "--XyZ--",
      "epilogue, also ignored",
    ])
    let parts = try Multipart.parse(body: bytes, contentType: "multipart/form-data; boundary=XyZ")
    #expect(parts.count == 2)
    #expect(parts[0].name == "shape")
    #expect(parts[0].filename == nil)
    #expect(parts[0].contentType == nil)
    #expect(parts[0].text == "poster")
    #expect(parts[1].name == "image")
    #expect(parts[1].filename == #"my "best" poster.jpg"#)
    #expect(parts[1].contentType == "image/jpeg")
    #expect(Array(parts[1].body) == Array("JPEGDATA".utf8))
  }

  @Test func quotedBoundaryWithSpacesAndPunctuation() throws {
    let boundary = "gc0p4Jq0M2Yt08j34c0p ('+_,-./:=?)"
    let bytes = body([
      "--\(boundary)", #"Content-Disposition: form-data; name="a""#, "", "1",
      "--\(boundary)--", "",
    ])
    let parts = try Multipart.parse(
      body: bytes, contentType: "multipart/form-data; boundary=\"\(boundary)\"")
    #expect(parts.map(\.name) == ["a"])
    #expect(parts.first?.text == "1")
  }

  @Test func emptyPartsAndPaddingAfterBoundary() throws {
    let bytes =
      Array(
        "--b  \t\r\nContent-Disposition: form-data; name=empty\r\n\r\n\r\n--b\r\n"
          .utf8) + Array("Content-Disposition: form-data; name=\"x\"\r\n\r\nvalue\r\n--b--".utf8)
    let parts = try Multipart.parse(body: bytes, contentType: "multipart/form-data; boundary=b")
    #expect(parts.map(\.name) == ["empty", "x"])
    #expect(parts[0].body.isEmpty)
    #expect(parts[1].text == "value")
  }

  @Test func binaryContentWithCRLFAndBoundaryLookalikes() throws {
    // Every byte value, CR/LF pairs, and near-misses of the delimiter inside the content.
    var payload = (0...255).map(UInt8.init)
    payload += Array("\r\n\r\n--bound\r\n-\r\n--boundar\r--boundary".utf8)
    payload += Array(repeating: 0x0D, count: 10) + [0x0A, 0x00, 0x0D]
    let boundary = "boundaryX"
    let bytes =
      Array(
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"b.bin\"\r\n"
          .utf8)
      + Array("Content-Type: application/octet-stream\r\n\r\n".utf8) + payload
      + Array("\r\n--\(boundary)--\r\n".utf8)
    let parts = try Multipart.parse(
      body: bytes, contentType: "multipart/form-data; boundary=\(boundary)")
    #expect(parts.count == 1)
    #expect(Array(parts[0].body) == payload)
  }

  @Test func largeBodyIsSlicedNotCopied() throws {
    // 2 MB of random bytes (a 64 KiB random block repeated: appending blocks stays fast in
    // debug builds).
    var generator = SeededRandom()
    let block = (0..<65536).map { _ in UInt8.random(in: 0...255, using: &generator) }
    var payload: [UInt8] = []
    while payload.count < 2_000_000 { payload += block }
    let boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"
    let bytes =
      Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"\r\n\r\n".utf8)
      + payload + Array("\r\n--\(boundary)--\r\n".utf8)
    let parts = try Multipart.parse(
      body: bytes, contentType: "multipart/form-data; boundary=\(boundary)")
    #expect(parts.count == 1)
    #expect(parts[0].body.count == payload.count)
    let same = parts[0].body.withUnsafeBytes { part in
      payload.withUnsafeBytes { memcmp(part.baseAddress!, $0.baseAddress!, $0.count) == 0 }
    }
    #expect(same, "\(SeededRandom.replay)")
    #expect(parts[0].body.startIndex > 0, "the part shares the body's storage")
  }

  @Test(arguments: [
    ("multipart/form-data", "no boundary parameter"),
    ("multipart/form-data; boundary=", "is not a valid media type"),
    (#"multipart/form-data; boundary="""#, "1 to 70"),
    ("multipart/form-data; boundary=\"\(String(repeating: "a", count: 71))\"", "1 to 70"),
    (#"multipart/form-data; boundary="ends in space ""#, "1 to 70"),
    (#"multipart/form-data; boundary="bad<char>""#, "1 to 70"),
    ("not a media type", "not a valid media type"),
  ])
  func refusesBadContentTypes(contentType: String, detail: String) {
    let error = parseError(
      body(["--b", "Content-Disposition: form-data; name=a", "", "x", "--b--"]), contentType)
    #expect(error?.kind == .badRequest)
    #expect(error?.detail.contains(detail) == true, "\(error?.detail ?? "no error")")
  }

  @Test func otherMediaTypesAreUnsupported() {
    let error = parseError([], "application/json")
    #expect(error?.kind == .unsupportedMediaType)
  }

  @Test(arguments: [
    (["no boundary here at all"], "does not contain its boundary"),
    (["--b--"], "has no parts"),
    (
      ["--b", "Content-Disposition: form-data; name=a", "", "value"],
      "ends before its closing boundary"
    ),
    (
      ["--b", "Content-Disposition: form-data; name=a", "", "value", "--"],
      "ends before its closing boundary"
    ),
    (["--b", "Content-Disposition: form-data; name=a"], "truncated inside the headers"),
    (["--bx", "Content-Disposition: form-data; name=a", "", "v", "--b--"], "followed by text"),
    (["preamble--b", "x"], "does not contain its boundary"),
    (["--b", "Content-Disposition: form-data", "", "v", "--b--"], "has no name"),
    (["--b", "Content-Type: text/plain", "", "v", "--b--"], "no Content-Disposition"),
    (["--b", "Content-Disposition: attachment; name=a", "", "v", "--b--"], "not form-data"),
    (["--b", #"Content-Disposition: form-data; name="a"#, "", "v", "--b--"], "malformed"),
    (["--b", "Content-Disposition: form-data; name=a", " folded", "", "v", "--b--"], "folded"),
    (["--b", "Content-Disposition form-data; name=a", "", "v", "--b--"], "is not \"Name: value\""),
    (
      [
        "--b", "Content-Disposition: form-data; name=a", "Content-Disposition: form-data; name=b",
        "", "v", "--b--",
      ], "two Content-Disposition"
    ),
    (
      ["--b", "Content-Disposition: form-data; name=a", "", "v", "--b"],
      "truncated: it ends right after a boundary"
    ),
    (
      ["--b", "Content-Disposition: form-data; name=a", "", "v", "--b junk", "--b--"],
      "followed by text"
    ),
  ])
  func refusesMalformedBodies(lines: [String], detail: String) {
    let error = parseError(body(lines), "multipart/form-data; boundary=b")
    #expect(error?.kind == .badRequest)
    #expect(error?.detail.contains(detail) == true, "\(error?.detail ?? "no error")")
  }

  @Test func partsWithoutNameReportWhichPart() {
    let bytes = body([
      "--b", "Content-Disposition: form-data; name=first", "", "1",
      "--b", "Content-Disposition: form-data; filename=x.png", "", "2", "--b--",
    ])
    let error = parseError(bytes, "multipart/form-data; boundary=b")
    #expect(error?.detail == "Multipart part 2: its Content-Disposition has no name.")
  }

  @Test func tooManyPartsAndOversizedHeaders() {
    var lines: [String] = []
    for index in 0...Multipart.maxParts {
      lines += ["--b", "Content-Disposition: form-data; name=f\(index)", "", "x"]
    }
    lines.append("--b--")
    #expect(
      parseError(body(lines), "multipart/form-data; boundary=b")?.detail.contains("more than")
        == true)
    let huge = body([
      "--b", "Content-Disposition: form-data; name=a",
      "X-Padding: \(String(repeating: "p", count: Multipart.maxHeaderBytes))", "", "v", "--b--",
    ])
    #expect(
      parseError(huge, "multipart/form-data; boundary=b")?.detail.contains("bytes of headers")
        == true)
  }

  @Test func findLocatesNeedles() {
    let hay = Array("abc\r\n--b\r\n--bound".utf8)
    #expect(Multipart.find(Array("\r\n--bound".utf8), in: hay, from: 0) == 8)
    #expect(Multipart.find(Array("\r\n--b".utf8), in: hay, from: 0) == 3)
    #expect(Multipart.find(Array("\r\n--b".utf8), in: hay, from: 4) == 8)
    #expect(Multipart.find(Array("zzz".utf8), in: hay, from: 0) == nil)
    #expect(Multipart.find(Array("abc".utf8), in: hay, from: 0, to: 2) == nil)
    #expect(Multipart.find(Array("x".utf8), in: [], from: 0) == nil)
  }
}
