import ArtworkCore

/// The headers of one multipart part that matter for a form: its disposition and content type.
struct PartHeaders {
  var name: String
  var filename: String?
  var contentType: String?

  /// Parses a header block (lines separated by CRLF, without the final empty line).
  /// `partNumber` (from 1) makes error details point at the part.
  init(_ block: ArraySlice<UInt8>, partNumber: Int) throws(ArtworkError) {
    func bad(_ detail: String) -> ArtworkError {
      ArtworkError(.badRequest, "Multipart part \(partNumber): \(detail)")
    }
    guard let text = String(validating: block, as: UTF8.self) else {
      throw bad("its headers are not valid UTF-8.")
    }
    var disposition: String?
    var contentType: String?
    // Split on CRLF only: a bare CR or LF inside a line is invalid, caught below.
    for line in text.split(separator: "\r\n", omittingEmptySubsequences: false) {
      guard let first = line.unicodeScalars.first else { continue }
      if first == " " || first == "\t" {
        throw bad("folded (multi-line) headers are not supported.")
      }
      guard let colon = line.firstIndex(of: ":"),
        line[..<colon].utf8.allSatisfy(HeaderSyntax.isTokenByte), colon != line.startIndex
      else {
        throw bad("the header line \(ClientText.quoted(line)) is not \"Name: value\".")
      }
      let value = HeaderSyntax.trimmed(String(line[line.index(after: colon)...]))
      guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
        throw bad("a header contains a stray line break.")
      }
      switch line[..<colon].lowercased() {
      case "content-disposition":
        guard disposition == nil else { throw bad("it has two Content-Disposition headers.") }
        disposition = value
      case "content-type":
        guard contentType == nil else { throw bad("it has two Content-Type headers.") }
        contentType = value
      default:
        continue  // Content-Transfer-Encoding and others are deprecated or irrelevant here.
      }
    }
    guard let disposition else { throw bad("it has no Content-Disposition header.") }
    var scanner = HeaderSyntax.Scanner(disposition)
    guard let kind = scanner.token(), let parameters = scanner.parameters() else {
      throw bad("its Content-Disposition \"\(disposition.prefix(120))\" is malformed.")
    }
    guard kind.lowercased() == "form-data" else {
      throw bad("its Content-Disposition is \"\(kind)\", not form-data.")
    }
    guard let name = parameters["name"] else {
      throw bad("its Content-Disposition has no name.")
    }
    self.name = name
    self.filename = parameters["filename"]
    self.contentType = contentType
  }
}
