import HTTP
import Testing

@testable import ArtworkCore
@testable import ArtworkService

/// A `POST /v1/artwork` request with `body` sent as `contentType`.
private func request(_ body: String, _ contentType: String, query: [String: String] = [:])
  -> HTTPRequest
{
  let pairs = query.map { "\(escaped($0))=\(escaped($1))" }
  let target = "/v1/artwork" + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
  return HTTPRequest(
    head: HTTPRequestHead(
      id: "t", method: .post, target: target, headers: ["Content-Type": contentType])!,
    body: Array(body.utf8))
}

/// `text` percent-escaped byte by byte, except for unreserved characters.
private func escaped(_ text: String) -> String {
  text.utf8.map { byte in
    let unreserved =
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~".utf8.contains(byte)
    return unreserved ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true)
  }.joined()
}

private func parseError(_ body: String, _ contentType: String = "application/json")
  -> ArtworkError?
{
  do {
    _ = try ArtworkRequest.parse(request(body, contentType))
    return nil
  } catch {
    return error
  }
}

@Suite struct ArtworkRequestJSONTests {
  @Test func readsTheURLAndOptions() throws {
    let parsed = try ArtworkRequest.parse(
      request(
        #"{"url": "https://media.example/p.jpg", "shape": "poster", "size": 400.0, "crop": "centre"}"#,
        "Application/JSON; charset=utf-8", query: ["size": "200"]))
    #expect(parsed.source == .url("https://media.example/p.jpg"))
    // The body wins over the query; a whole float reads as an integer.
    #expect(parsed.fields == ["shape": "poster", "size": "400", "crop": "centre"])
  }

  @Test(arguments: [
    (#"{"url": "u", "size": 1.5}"#, "1.5"), (#"{"url": "u", "size": -3}"#, "-3"),
    (#"{"url": "u", "size": "12"}"#, "12"), (#"{"url": "u", "size": 1e2}"#, "100"),
  ])
  func numbersBecomeOptionText(body: String, expected: String) throws {
    #expect(try ArtworkRequest.parse(request(body, "application/json")).fields["size"] == expected)
  }

  @Test(arguments: [
    ("{\"url\": ", "The body is not valid JSON: unexpected end of the JSON text at byte 8."),
    (
      #"{"url": "a", "url": "b"}"#,
      #"The body is not valid JSON: the key "url" appears twice at byte 13."#
    ),
    (
      #"["https://a.example/p.jpg"]"#,
      #"The JSON body must be an object, e.g. {"url": "https://..."}."#
    ),
    (#"{"shape": "poster"}"#, #"The JSON body needs a string `url`, e.g. {"url": "https://..."}."#),
    (#"{"url": 7}"#, #"The JSON body needs a string `url`, e.g. {"url": "https://..."}."#),
    (#"{"url": "u", "size": true}"#, "The JSON key `size` must be a string or a number."),
    (#"{"url": "u", "size": null}"#, "The JSON key `size` must be a string or a number."),
    (#"{"url": "u", "crop": {"x": 1}}"#, "The JSON key `crop` must be a string or a number."),
    (#"{"url": "u", "sise": 400}"#, "Unknown option `sise`; the options are shape, size and crop."),
  ])
  func refusesWithASpecificReason(body: String, detail: String) {
    let error = parseError(body)
    #expect(error?.kind == .badRequest)
    #expect(error?.detail == detail)
  }

  static func form(_ contentType: String) -> InputForm {
    (try? InputForm(contentType: contentType)) ?? .json
  }

  @Test func parseJSONLeavesOtherBodiesAlone() {
    #expect(
      ArtworkRequest.parseJSON(
        request("--b--", "multipart/form-data; boundary=b"),
        form: Self.form("multipart/form-data; boundary=b")) == nil)
    #expect(
      ArtworkRequest.parseJSON(
        request("not json", "application/json"), form: Self.form("application/json")) == nil)
    #expect(
      ArtworkRequest.parseJSON(
        request(#"{"url": "u"}"#, "application/json"), form: Self.form("application/json")) != nil)
    // Large JSON bodies are left to the handler, off the server thread.
    let padded = #"{"url": "u", "shape": "\#(String(repeating: " ", count: 17_000))poster"}"#
    #expect(
      ArtworkRequest.parseJSON(
        request(padded, "application/json"), form: Self.form("application/json")) == nil)
  }
}

@Suite struct MediaTypeEssenceTests {
  @Test(arguments: [
    ("image/png", "image/png"), ("  Image/PNG ; q=1", "image/png"),
    ("application/json;charset=utf-8", "application/json"), ("\tTEXT/Plain\t", "text/plain"),
    ("", ""), ("   ", ""), (";a=b", ""),
    ("multipart/form-data; boundary=\"X;Y\"", "multipart/form-data"),
  ])
  func isTheLowercasedTypeWithoutParameters(header: String, expected: String) {
    #expect(mediaTypeEssence(header) == expected)
  }
}
