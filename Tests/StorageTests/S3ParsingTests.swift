import Testing

@testable import ArtworkCore
@testable import Storage

/// Reading the store's answers: error bodies, listings, dates. Malformed input never traps.
@Suite struct S3ParsingTests {
  @Test func errorBodiesGiveCodeAndMessage() {
    let body = Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <Error><Code>SignatureDoesNotMatch</Code><Message>The request signature &amp; &#34;x&#x22;</Message></Error>
      """.utf8)
    let response = S3Response(status: 403, headers: [:], body: body)
    #expect(response.errorCode == "SignatureDoesNotMatch")
    #expect(response.errorMessage == "The request signature & \"x\"")
    #expect(response.summary == "HTTP 403 SignatureDoesNotMatch: The request signature & \"x\"")
  }

  @Test func listingsGiveKeysDatesAndTheNextToken() {
    let body = Array(
      """
      <ListBucketResult><Name>b</Name><KeyCount>2</KeyCount><IsTruncated>true</IsTruncated>\
      <Contents><Key>p/objects/a&amp;b.jpg</Key><LastModified>2026-11-29T13:04:17.780Z</LastModified>\
      <Size>3</Size></Contents><Contents><Key>p/objects/c.png</Key>\
      <LastModified>1970-01-02T00:00:00Z</LastModified></Contents>\
      <NextContinuationToken>tok/en=</NextContinuationToken></ListBucketResult>
      """.utf8)
    let listing = S3Listing(xml: body)
    #expect(
      listing.entries == [
        .init(key: "p/objects/a&b.jpg", lastModified: 1_795_957_457),
        .init(key: "p/objects/c.png", lastModified: 86_400),
      ])
    #expect(listing.nextContinuationToken == "tok/en=")
    let last = S3Listing(xml: Array("<IsTruncated>false</IsTruncated>".utf8))
    #expect(last.entries.isEmpty && last.nextContinuationToken == nil)
  }

  /// Broken XML in a store's answer reads as what it holds, never more: no listing entry
  /// without a whole `Contents` with a non-empty key, no continuation, and a summary that is
  /// the status alone when no error code can be read.
  @Test(arguments: [
    ("", [String]()), ("<", []), ("<Contents>", []), ("<Contents><Key>x", []), ("<Key/>", [""]),
    ("&#xFFFFFFFF;", []), ("<Code>&#;</Code>", []), ("<Contents><Key></Key></Contents>", [""]),
    ("<KeyCount>1</KeyCount>", []),
  ])
  func malformedXMLReadsAsWhatItHolds(text: String, keys: [String]) {
    let body = Array(text.utf8)
    let listing = S3Listing(xml: body)
    #expect(listing.entries.isEmpty)
    #expect(listing.nextContinuationToken == nil)
    #expect(S3XML.values(of: "Key", in: body) == keys)
    let summary = S3Response(status: 500, headers: [:], body: body).summary
    #expect(summary.hasPrefix("HTTP 500"))
    #expect(!summary.contains("\u{FFFD}"))
  }

  @Test func elementNamesMatchExactly() {
    let body = Array("<KeyCount>2</KeyCount><Key a=\"1\">k</Key><Key/>".utf8)
    #expect(S3XML.values(of: "Key", in: body) == ["k", ""])
  }

  @Test(arguments: [
    ("Sun, 29 Nov 2026 13:04:17 GMT", Int64(1_795_957_457)),
    ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
    ("Tue, 29 Feb 2028 23:59:59 GMT", 1_835_481_599),
  ])
  func httpDates(text: String, seconds: Int64) { #expect(S3Date.parseHTTPDate(text) == seconds) }

  @Test(arguments: ["", "Sun, 29 Foo 2026 13:04:17 GMT", "Sun, 29 Nov 2026 25:04:17 GMT", "29 Nov"])
  func badHTTPDates(text: String) { #expect(S3Date.parseHTTPDate(text) == nil) }

  @Test func isoDates() {
    #expect(S3Date.parseISO8601("2026-11-29T13:04:17Z") == 1_795_957_457)
    #expect(S3Date.parseISO8601("2026-11-29T13:04:17.000Z") == 1_795_957_457)
    #expect(S3Date.parseISO8601("2026-11-29T13:04:17") == nil)
    #expect(S3Date.parseISO8601("2026-13-29T13:04:17Z") == nil)
  }

  @Test func responseHeadersGiveLengthsAndDates() {
    let response = S3Response(
      status: 206,
      headers: [
        "content-length": "10", "content-range": "bytes 0-9/2000000",
        "last-modified": "Thu, 01 Jan 1970 00:00:00 GMT",
      ], body: [])
    #expect(response.contentLength == 10)
    #expect(response.contentRangeTotal == 2_000_000)
    #expect(response.lastModified == 0)
  }
}
