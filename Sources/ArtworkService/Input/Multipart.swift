import ArtworkCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `multipart/form-data` (RFC 7578 over RFC 2046 §5.1) parsing for uploads.
///
/// The body is scanned once for the delimiter (`CRLF--boundary`) with `memchr`/`memcmp`; part
/// bodies are slices of the request body, so a 2 MB upload is never copied here.
enum Multipart {
  /// The most parts accepted: a form here has an image and a few option fields.
  static let maxParts = 64
  /// The most header bytes one part may carry.
  static let maxHeaderBytes = 8192

  /// Splits `body` into its parts, using the boundary from `contentType`.
  ///
  /// Throws `.unsupportedMediaType` when `contentType` is not `multipart/form-data`, and
  /// `.badRequest` with a specific detail for a missing or invalid boundary, a body that does not
  /// start with or never closes its boundary, and parts without a valid `Content-Disposition`.
  /// The preamble and epilogue are ignored.
  static func parse(body: [UInt8], contentType: String) throws(ArtworkError)
    -> [MultipartPart]
  {
    let boundary = try boundary(of: contentType)
    let dashBoundary = Array("--\(boundary)".utf8)
    let delimiter = [0x0D, 0x0A] + dashBoundary
    let bytes = body
    let count = bytes.count

    // The first boundary line may open the body or follow a preamble.
    var position: Int
    if bytes.starts(with: dashBoundary) {
      position = dashBoundary.count
    } else if let found = find(delimiter, in: bytes, from: 0) {
      position = found + delimiter.count
    } else {
      throw bad("The multipart body does not contain its boundary \"\(boundary)\".")
    }

    var parts: [MultipartPart] = []
    while true {
      // After a boundary: "--" closes the body; otherwise optional padding, then CRLF.
      if position + 2 <= count && bytes[position] == 0x2D && bytes[position + 1] == 0x2D { break }
      while position < count && (bytes[position] == 0x20 || bytes[position] == 0x09) {
        position += 1
      }
      guard position + 2 <= count else {
        throw bad("The multipart body is truncated: it ends right after a boundary.")
      }
      guard bytes[position] == 0x0D && bytes[position + 1] == 0x0A else {
        throw bad("A multipart boundary line is followed by text instead of a line break.")
      }
      position += 2
      guard parts.count < maxParts else {
        throw bad("The multipart body has more than \(maxParts) parts.")
      }

      // Headers end at an empty line; with no headers the empty line comes first.
      let headerEnd: Int
      let bodyStart: Int
      if position + 2 <= count && bytes[position] == 0x0D && bytes[position + 1] == 0x0A {
        headerEnd = position
        bodyStart = position + 2
      } else {
        let limit = min(count, position + maxHeaderBytes + 4)
        guard let end = find([0x0D, 0x0A, 0x0D, 0x0A], in: bytes, from: position, to: limit)
        else {
          throw bad(
            limit == count
              ? "The multipart body is truncated inside the headers of part \(parts.count + 1)."
              : "Part \(parts.count + 1) has more than \(maxHeaderBytes) bytes of headers.")
        }
        headerEnd = end
        bodyStart = end + 4
      }
      let headers = try PartHeaders(bytes[position..<headerEnd], partNumber: parts.count + 1)

      guard let bodyEnd = find(delimiter, in: bytes, from: bodyStart) else {
        throw bad(
          "The multipart body ends before its closing boundary \"--\(boundary)--\" "
            + "(it is truncated, or the boundary is wrong).")
      }
      parts.append(
        MultipartPart(
          name: headers.name, filename: headers.filename, contentType: headers.contentType,
          body: body[bodyStart..<bodyEnd]))
      position = bodyEnd + delimiter.count
    }
    guard !parts.isEmpty else { throw bad("The multipart body has no parts.") }
    return parts
  }

  /// The validated `boundary` parameter of a `multipart/form-data` content type.
  static func boundary(of contentType: String) throws(ArtworkError) -> String {
    guard let media = MediaType(contentType) else {
      throw bad("The Content-Type header \"\(contentType)\" is not a valid media type.")
    }
    guard media.essence == "multipart/form-data" else {
      throw ArtworkError(
        .unsupportedMediaType,
        "Expected multipart/form-data, got \(ClientText.quoted(media.essence)).")
    }
    guard let boundary = media.parameters["boundary"] else {
      throw bad("The multipart/form-data Content-Type has no boundary parameter.")
    }
    // RFC 2046: 1 to 70 characters from `bchars`, not ending in a space.
    let allowed = Array("'()+_,-./:=? ".utf8)
    let valid =
      (1...70).contains(boundary.utf8.count) && boundary.utf8.last != 0x20
      && boundary.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || allowed.contains(byte)
      }
    guard valid else {
      throw bad(
        "The multipart boundary must be 1 to 70 letters, digits or '()+_,-./:=? "
          + "characters, not ending in a space.")
    }
    return boundary
  }

  /// The first index at or after `start` (and before `end`) where `needle` begins.
  static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int, to end: Int? = nil)
    -> Int?
  {
    let end = min(end ?? haystack.count, haystack.count)
    guard let first = needle.first, end - start >= needle.count else { return nil }
    return haystack.withUnsafeBufferPointer { hay in
      needle.withUnsafeBufferPointer { pattern in
        guard let base = hay.baseAddress, let patternBase = pattern.baseAddress else { return nil }
        var index = start
        let lastStart = end - pattern.count
        while index <= lastStart {
          // memchr finds the candidate's first byte at C speed; memcmp checks the rest.
          guard let hit = memchr(base + index, Int32(first), lastStart - index + 1) else {
            return nil
          }
          let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
          if memcmp(base + offset, patternBase, pattern.count) == 0 { return offset }
          index = offset + 1
        }
        return nil
      }
    }
  }

  static func bad(_ detail: String) -> ArtworkError {
    ArtworkError(.badRequest, detail)
  }
}
