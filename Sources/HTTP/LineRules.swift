import ArtworkCore

/// The rules for the lines outside body data that http-parser's lenient build does not apply.
/// Fed every byte outside body data, in order, across reads (`RequestParser` cuts the data out):
///
/// - a CR is always followed by LF; a line of the head or of the trailers may end in a bare LF
///   (RFC 9112 §2.2 lets a server take it), a chunk line may not;
/// - no line of the head after the request line, and no line of the trailers, starts with a
///   space or a tab (an obs-fold), whether the line it would continue is empty or not;
/// - a chunk line is a hexadecimal size, then (after spaces or tabs only when a `;` follows)
///   extensions without a control character, then CRLF: no space ends a size, no bare LF hides
///   in an extension;
/// - chunk data is followed by exactly CRLF.
struct LineRules {
  /// Where in a message the next byte is.
  private enum Section {
    /// The request line and the header fields.
    case head
    /// After the head of a message without chunked coding: only data (cut out) follows.
    case body
    /// A chunk line: its size, the spaces after it, its extensions.
    case chunkLine(ChunkPart)
    /// After a chunk line of a size other than 0: data (cut out), then its CRLF.
    case chunkData
    /// The trailer section after the last chunk.
    case trailers
  }

  /// Where in a chunk line the next byte is.
  private enum ChunkPart {
    case size
    /// Spaces or tabs after the size: a `;` must follow.
    case space
    case extensions
  }

  private var section = Section.head
  private var afterCR = false
  /// 2: the next byte must be the CR after chunk data; 1: the LF after it.
  private var terminator = 0
  /// Whether the current line has a byte other than its CR.
  private var lineHasContent = false
  /// Whether the request line has ended (the head's lines from here on are fields).
  private var inFields = false
  /// The digits of the current chunk size, and whether one of them is not 0.
  private var sizeDigits = 0
  private var sizeNonZero = false

  /// Chunk data just ended (or stopped at the end of a read): CRLF must come next.
  mutating func expectDataTerminator() {
    terminator = 2
  }

  /// The message is complete: what follows is the next request's head.
  mutating func messageEnded() {
    section = .head
    afterCR = false
    terminator = 0
    lineHasContent = false
    inFields = false
  }

  /// `accept` for each of `bytes[range]` in order: the first breach, or nil.
  ///
  /// Inside a line of the head or of the trailers that has begun, every byte other than CR and
  /// LF is taken without changing anything: those runs (most of a head) are skipped at once.
  mutating func accept(
    _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, chunked: Bool
  ) -> ParseFailure? {
    var index = range.lowerBound
    while index < range.upperBound {
      if inPlainLine {
        while index < range.upperBound, bytes[index] != 13, bytes[index] != 10 { index += 1 }
        if index == range.upperBound { return nil }
      }
      if let breach = accept(bytes[index], chunked: chunked) { return breach }
      index += 1
    }
    return nil
  }

  /// Whether the next byte, unless it is a CR or an LF, is taken as it is: inside a begun line
  /// of the head, of the trailers or of the (cut out) body, nothing pending.
  private var inPlainLine: Bool {
    guard terminator == 0, !afterCR, lineHasContent else { return false }
    switch section {
    case .head, .trailers, .body: return true
    case .chunkLine, .chunkData: return false
    }
  }

  /// The breach `byte` makes coming next, or nil when it may. `chunked` tells whether the
  /// current message's body is chunked (known once its head is parsed, before its last LF).
  mutating func accept(_ byte: UInt8, chunked: Bool) -> ParseFailure? {
    let cr: UInt8 = 13
    let lf: UInt8 = 10
    switch terminator {
    case 2:
      terminator = 1
      return byte == cr ? nil : .lineEnding
    case 1:
      terminator = 0
      guard byte == lf else { return .lineEnding }
      startChunkLine()
      return nil
    default:
      break
    }
    // Only the CRLF after chunk data comes after it, announced by `expectDataTerminator`.
    if case .chunkData = section { return .lineEnding }
    if afterCR {
      afterCR = false
      return byte == lf ? lineEnded(chunked: chunked) : .lineEnding
    }
    if byte == cr {
      if case .chunkLine(let part) = section {
        // The size must have a digit, and spaces after it a `;`: http-parser takes `5 \r\n`.
        guard sizeDigits > 0, part != .space else { return .chunkLine }
      }
      afterCR = true
      return nil
    }
    switch section {
    case .head, .trailers, .body:
      if byte == lf { return lineEnded(chunked: chunked) }
      let isFieldLine: Bool
      if case .head = section { isFieldLine = inFields } else { isFieldLine = true }
      if !lineHasContent, isFieldLine, byte == 32 || byte == 9 { return .foldedLine }
      lineHasContent = true
      return nil
    case .chunkLine(let part):
      return chunkLineByte(byte, part)
    case .chunkData:
      return .lineEnding
    }
  }

  /// A byte of a chunk line other than its CR.
  private mutating func chunkLineByte(_ byte: UInt8, _ part: ChunkPart) -> ParseFailure? {
    switch part {
    case .size:
      if let digit = hexValue(byte) {
        sizeDigits += 1
        sizeNonZero = sizeNonZero || digit != 0
        return nil
      }
      guard sizeDigits > 0 else { return .chunkLine }
      if byte == 32 || byte == 9 {
        section = .chunkLine(.space)
      } else if byte == UInt8(ascii: ";") {
        section = .chunkLine(.extensions)
      } else {
        return .chunkLine
      }
      return nil
    case .space:
      if byte == UInt8(ascii: ";") {
        section = .chunkLine(.extensions)
      } else if byte != 32, byte != 9 {
        return .chunkLine
      }
      return nil
    case .extensions:
      // A bare LF is the one http-parser lets through: it reads on to the next CR, data and all.
      return byte == 9 || (byte >= 32 && byte != 127) ? nil : .chunkLine
    }
  }

  /// A line ended: its LF, after a CR or not (a chunk line's only after a CR: a bare LF in it is
  /// refused by `chunkLineByte`).
  private mutating func lineEnded(chunked: Bool) -> ParseFailure? {
    defer { lineHasContent = false }
    switch section {
    case .head:
      if lineHasContent {
        inFields = true
      } else if inFields {
        // The empty line after the fields: the head is over.
        if chunked { startChunkLine() } else { section = .body }
      }
      // Empty lines before the request line are skipped, as RFC 9112 §2.2 allows.
      return nil
    case .body:
      return nil
    case .trailers:
      if !lineHasContent { messageEnded() }
      return nil
    case .chunkLine:
      // The chunk's data follows, or after the last chunk (size 0) the trailers.
      section = sizeNonZero ? .chunkData : .trailers
      return nil
    case .chunkData:
      return .lineEnding
    }
  }

  private mutating func startChunkLine() {
    section = .chunkLine(.size)
    sizeDigits = 0
    sizeNonZero = false
  }
}
