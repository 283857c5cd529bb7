import Testing

@testable import ArtworkCore
@testable import Storage

/// Request construction, without a server: keys, URLs, canonical queries and signed headers.
@Suite struct S3RequestTests {
  static func client(
    endpoint: String = "https://s3.example.com", prefix: String = "artwork",
    virtualHosted: Bool = false
  ) -> S3Requests {
    S3Requests(
      configuration: S3Configuration(
        endpoint: endpoint, bucket: "media", prefix: prefix, accessKey: "AK", secretKey: "SK",
        virtualHosted: virtualHosted))
  }

  static let key = ArtworkKey(fileName: String(repeating: "ab", count: 32) + ".jpg")!

  @Test(arguments: [
    ("plain/key.jpg", "plain/key.jpg"),
    ("AZaz09-._~/", "AZaz09-._~/"),
    ("a b+c", "a%20b%2Bc"),
    ("ü", "%C3%BC"),
    ("*?=&%#", "%2A%3F%3D%26%25%23"),
    ("a//b", "a//b"),
  ])
  func keysArePercentEncodedExceptUnreservedAndSlash(key: String, encoded: String) {
    #expect(S3Encoding.encodeKey(key) == encoded)
  }

  @Test func canonicalQueriesAreSortedEncodedAndExplicit() {
    let query = S3Encoding.canonicalQuery([
      ("prefix", "a/b c"), ("list-type", "2"), ("delimiter", ""), ("continuation-token", "x+y=="),
    ])
    #expect(query == "continuation-token=x%2By%3D%3D&delimiter=&list-type=2&prefix=a%2Fb%20c")
  }

  @Test func objectAndRecordKeysLiveUnderThePrefix() {
    let client = Self.client()
    #expect(client.objectKey(Self.key) == "artwork/objects/\(Self.key.fileName)")
    #expect(
      client.recordKey("https://x.test/a.png")
        == "artwork/records/\(SHA256.hex(Array("https://x.test/a.png".utf8)))")
    #expect(Self.client(prefix: "").objectKey(Self.key) == "objects/\(Self.key.fileName)")
    #expect(Self.client(prefix: "/a/b/").objectKey(Self.key) == "a/b/objects/\(Self.key.fileName)")
  }

  @Test func pathStyleAndVirtualHostedURLs() {
    #expect(
      Self.client().objectURL("artwork/objects/x.jpg")
        == "https://s3.example.com/media/artwork/objects/x.jpg")
    #expect(
      Self.client(virtualHosted: true).objectURL("artwork/objects/x.jpg")
        == "https://media.s3.example.com/artwork/objects/x.jpg")
    #expect(
      Self.client(endpoint: "http://127.0.0.1:8333/").objectURL("k")
        == "http://127.0.0.1:8333/media/k")
    #expect(
      Self.client(endpoint: "https://gw.example.com/s3").objectURL("k")
        == "https://gw.example.com/s3/media/k")
    #expect(Self.client().bucketURL() == "https://s3.example.com/media")
    #expect(Self.client(virtualHosted: true).bucketURL() == "https://media.s3.example.com/")
    #expect(
      Self.client(virtualHosted: true).bucketURL(query: [("list-type", "2")])
        == "https://media.s3.example.com/?list-type=2")
  }

  @Test func putCarriesPayloadHashContentTypeAndCreateOnlyCondition() {
    let body = Array("image bytes".utf8)
    let request = Self.client().putObject(
      "artwork/objects/x.png", body: body, contentType: "image/png",
      cacheControl: ArtworkKey.cacheControl, createOnly: true)
    #expect(request.method == .put)
    #expect(request.body == body)
    #expect(request.header("x-amz-content-sha256") == SHA256.hex(body))
    #expect(request.header("content-type") == "image/png")
    #expect(request.header("cache-control") == "public, max-age=31536000, immutable")
    #expect(request.header("if-none-match") == "*")
    #expect(!request.headers.contains(where: { $0.value.isEmpty }))
  }

  @Test func recordPutOverwrites() {
    let request = Self.client().putObject(
      "artwork/records/r", body: [], contentType: "application/octet-stream", cacheControl: nil,
      createOnly: false)
    #expect(request.header("if-none-match") == nil)
    #expect(request.header("x-amz-content-sha256") == S3Requests.emptyPayloadHash)
  }

  @Test func bodylessRequestsHashTheEmptyBody() {
    let client = Self.client()
    let requests = [
      client.getObject("k"), client.headObject("k"), client.deleteObject("k"),
      client.listObjects(prefix: "p/", continuationToken: nil, maxKeys: 5),
      client.getObject("k", range: 0...9),
    ]
    for request in requests {
      #expect(request.header("x-amz-content-sha256") == S3Requests.emptyPayloadHash)
      #expect(request.body.isEmpty)
    }
    #expect(requests.last?.header("range") == "bytes=0-9")
  }

  @Test func listingQueryIsCanonical() {
    let request = Self.client().listObjects(
      prefix: "artwork/objects/", continuationToken: "1/a+b=", maxKeys: 1000)
    #expect(
      request.url
        == "https://s3.example.com/media?continuation-token=1%2Fa%2Bb%3D&list-type=2"
        + "&max-keys=1000&prefix=artwork%2Fobjects%2F")
  }

  @Test func copyInPlaceRestatesMetadata() {
    let request = Self.client().copyInPlace(
      "artwork/objects/a b.jpg", contentType: "image/jpeg", cacheControl: "c", touchedAt: 42)
    #expect(request.method == .put)
    #expect(request.url == "https://s3.example.com/media/artwork/objects/a%20b.jpg")
    #expect(request.header("x-amz-copy-source") == "/media/artwork/objects/a%20b.jpg")
    #expect(request.header("x-amz-metadata-directive") == "REPLACE")
    #expect(request.header("content-type") == "image/jpeg")
    #expect(request.header("x-amz-meta-touched") == "42")
  }

  @Test func configurationProblemsAreAllReported() {
    let bad = S3Configuration(
      endpoint: "ftp://x", region: "us east", bucket: "Bad_Bucket", accessKey: "", secretKey: "")
    #expect(bad.problems.count == 4)
    let good = S3Configuration(
      endpoint: "https://s3.example.com", bucket: "media", accessKey: "a", secretKey: "s")
    #expect(good.problems.isEmpty)
    let leaky = S3Configuration(
      endpoint: "", bucket: "media", accessKey: "a:b", secretKey: "hunter2")
    #expect(leaky.problems.count == 2)
    #expect(!leaky.problems.joined().contains("hunter2"))
  }

  @Test(arguments: ["media", "a.b-c", "123"])
  func validBucketNames(name: String) { #expect(S3Configuration.isValidBucketName(name)) }

  @Test(arguments: ["ab", "-ab", "ab-", "Media", "a_b", String(repeating: "a", count: 64)])
  func invalidBucketNames(name: String) { #expect(!S3Configuration.isValidBucketName(name)) }
}
