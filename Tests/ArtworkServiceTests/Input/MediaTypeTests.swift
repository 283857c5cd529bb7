import Testing

@testable import ArtworkService

@Suite struct MediaTypeTests {
  @Test func parsesTypeSubtypeAndParameters() throws {
    let media = try #require(MediaType(#"Multipart/Form-Data; Boundary="a b\"c" ; charset=UTF-8"#))
    #expect(media.type == "multipart")
    #expect(media.subtype == "form-data")
    #expect(media.essence == "multipart/form-data")
    #expect(media.parameters == ["boundary": "a b\"c", "charset": "UTF-8"])
    #expect(MediaType("image/png")?.essence == "image/png")
    #expect(MediaType("  image/JPEG;")?.essence == "image/jpeg")
    #expect(MediaType("application/json;;charset=utf-8")?.parameters == ["charset": "utf-8"])
    #expect(MediaType(#"text/plain; a="x""#)?.description == "text/plain; a=x")
    #expect(MediaType(#"text/plain; a="x y""#)?.description == #"text/plain; a="x y""#)
  }

  @Test(arguments: [
    "", "image", "image/", "/png", "image/png x", "image/png; charset", "image/png; =x",
    #"image/png; a="unterminated"#, "image/png; a=1; a=2", "im age/png", "image/png; a=x y",
  ])
  func refusesMalformed(header: String) {
    #expect(MediaType(header) == nil)
  }
}
