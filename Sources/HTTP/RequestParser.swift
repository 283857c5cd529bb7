internal import CHTTPParser

/// One connection's request parser: http-parser fed the bytes as they are read, the head
/// collected for `FramingRules`, the body collected within a limit.
///
/// http-parser frames the messages (Content-Length, chunked coding, pipelining) and refuses most
/// malformed input itself. Debian builds it without its strict checks, so the rules it skips are
/// checked here on bytes the parser has already framed (`LineRules`): outside body data a CR is
/// always followed by LF, chunk data by CRLF, a chunk line is a size and extensions without a
/// control character, and no field line of the head or the trailers is folded. The parser stops (pauses) when the head is complete and when the message is,
/// so the connection decides before any body byte is read and never reads into the next request.
final class RequestParser {
  /// Why `feed` returned.
  enum Stop: Equatable {
    /// Every byte was consumed; the message is not complete yet.
    case needMore
    /// The head is complete: judge it, then `feed` the rest (the body) if it is accepted.
    case headComplete
    /// The message is complete; bytes after `consumed` belong to the next request.
    case messageComplete
    /// The body grew past `bodyLimit`.
    case bodyOverLimit
    /// The bytes are not a well-framed HTTP/1.x request.
    case failed(ParseFailure)
  }

  /// One header field as sent (the value without the whitespace before it; http-parser leaves
  /// any after it, which `HTTPHeaders` trims).
  struct Field: Sendable {
    var name: [UInt8]
    var value: [UInt8]
  }

  /// Where the parser is in the current message.
  private enum Place {
    case betweenMessages
    case head
    case body
  }

  /// The request-target as sent.
  private(set) var target: [UInt8] = []
  /// The header fields in order, duplicates kept.
  private(set) var fields: [Field] = []
  /// The fields of the head before, whose buffers the next head's fields reuse.
  private var spareFields: [Field] = []
  /// Bytes of the current head read so far.
  private(set) var headBytes = 0
  /// Body bytes of the current message received so far (collected or not).
  private(set) var bodyBytes = 0
  /// The largest body collected; more is `.bodyOverLimit`.
  var bodyLimit = Int.max
  /// The body collected so far.
  private(set) var body: [UInt8] = []

  private let raw: UnsafeMutablePointer<http_parser>
  private var place = Place.betweenMessages
  private var stop = Stop.needMore
  /// Whether the last head callback was a field name (so a value follows) or a value.
  private var lastWasValue = false
  /// Where the last value piece ended, counted from the first byte ever fed.
  private var lastValueEnd = -1
  /// Bytes fed before the current buffer.
  private var fedBefore = 0
  /// The buffer being fed, for the positions of callback data.
  private var base: UnsafeRawPointer?
  /// Where the request-target ended, counted from the first byte ever fed.
  private var targetEnd = -1
  /// The bytes after the target up to the end of the request line (` HTTP/1.1` and the CR).
  private var versionText: [UInt8] = []
  private var versionChecked = false
  /// Body data in the current buffer, as offsets into it, for the line-ending check.
  private var bodySpans: [(start: Int, end: Int)] = []
  private var lines = LineRules()

  init() {
    raw = .allocate(capacity: 1)
    http_parser_init(raw, HTTP_REQUEST)
    raw.pointee.data = Unmanaged.passUnretained(self).toOpaque()
  }

  deinit {
    raw.deallocate()
  }

  /// The HTTP version of the request line.
  var version: (major: Int, minor: Int) {
    (Int(raw.pointee.http_major), Int(raw.pointee.http_minor))
  }

  /// The method token, as http-parser knows it.
  var method: HTTPMethod {
    Self.methods[Int(artwork_http_method(raw))] ?? HTTPMethod(rawValue: "-")
  }

  /// Whether the body is chunked.
  var isChunked: Bool { artwork_http_chunked(raw) != 0 }

  /// What the head declares of the body's length.
  enum DeclaredLength: Equatable {
    /// No Content-Length.
    case none
    case bytes(Int)
    /// A Content-Length too large for an `Int` (2^63 and up): larger than any limit.
    case beyondAnyLimit
  }

  /// The declared Content-Length. Compared to a limit it is a number of any size: a value
  /// beyond `Int` is over every limit, never "no length".
  var declaredLength: DeclaredLength {
    guard artwork_http_has_length(raw) != 0 else { return .none }
    guard let length = Int(exactly: raw.pointee.content_length) else { return .beyondAnyLimit }
    return .bytes(length)
  }

  /// The declared Content-Length when it fits an `Int`.
  var contentLength: Int? {
    if case .bytes(let length) = declaredLength { return length }
    return nil
  }

  /// Whether the head has a Content-Length field (whatever its value).
  var hasContentLength: Bool { artwork_http_has_length(raw) != 0 }

  /// Whether the request asks to switch protocols (Upgrade or CONNECT): nothing after it is
  /// HTTP/1.1 any more, so its connection closes after the answer.
  var isUpgrade: Bool { artwork_http_upgrade(raw) != 0 }

  /// Whether a body follows the head.
  var expectsBody: Bool {
    switch declaredLength {
    case .none: isChunked
    case .bytes(let length): length > 0
    case .beyondAnyLimit: true
    }
  }

  /// Whether body bytes are kept (`body`) or only counted: only an accepted request's are
  /// (`collectBody`); a refused one's body is never held in memory.
  private(set) var collectsBody = false

  /// Keeps the body of the current message from now on, within `limit` bytes, with room for
  /// `expected` reserved.
  func collectBody(limit: Int, expected: Int) {
    collectsBody = true
    bodyLimit = limit
    body.reserveCapacity(expected)
  }

  /// Keeps nothing of the current message's body from now on (what was kept is let go) and
  /// counts it only, up to `limit` bytes in all: a refused request's body, read and dropped
  /// before its answer.
  func dropBody(limit: Int) {
    collectsBody = false
    body = []
    bodyLimit = limit
  }

  /// Forgets the last request's head, before the next request's first byte is fed (the parser
  /// reports the start of a message only once its method looks valid).
  func forgetHead() {
    target.removeAll(keepingCapacity: true)
    recycleFields()
  }

  /// Empties `fields`, keeping their buffers in `spareFields` (a few: a head of dozens of
  /// fields does not keep dozens of buffers).
  private func recycleFields() {
    while spareFields.count < 16, let field = fields.popLast() { spareFields.append(field) }
    fields.removeAll(keepingCapacity: true)
  }

  /// Hands over the collected body and forgets it.
  func takeBody() -> [UInt8] {
    defer { body = [] }
    return body
  }

  /// Parses as much of `bytes` as the current message allows. Bytes after `consumed` were not
  /// looked at: feed them again after a `.headComplete` or `.messageComplete` stop.
  func feed(_ bytes: UnsafeRawBufferPointer) -> (consumed: Int, stop: Stop) {
    guard !bytes.isEmpty, let start = bytes.baseAddress else { return (0, .needMore) }
    if artwork_http_errno(raw) == HPE_PAUSED { http_parser_pause(raw, 0) }
    let countsHead = place != .body
    base = start
    bodySpans.removeAll(keepingCapacity: true)
    stop = .needMore
    let consumed = http_parser_execute(
      raw, Self.settings, start.assumingMemoryBound(to: CChar.self), bytes.count)
    base = nil
    defer { fedBefore += consumed }
    if countsHead { headBytes += consumed }
    let error = artwork_http_errno(raw)
    if error == HPE_INVALID_CONTENT_LENGTH, place != .body, consumed < bytes.count,
      (48...57).contains(bytes[consumed])
    {
      // http-parser stops at the digit that would overflow its count: a length, not garbage.
      return (consumed, .failed(.lengthBeyondAnyLimit))
    }
    if error != HPE_OK && error != HPE_PAUSED {
      return (consumed, .failed(.parser(error, inBody: place == .body)))
    }
    if case .failed = stop { return (consumed, stop) }
    let parsed = UnsafeRawBufferPointer(rebasing: bytes[..<consumed])
    if !checkVersion(parsed) { return (consumed, .failed(.requestLine)) }
    if let breach = checkLines(parsed) { return (consumed, .failed(breach)) }
    if stop == .messageComplete { lines.messageEnded() }
    return (consumed, stop)
  }

  /// The lenient build takes any letters for the `TTP` of `HTTP/`: the request line must end
  /// in exactly one space, `HTTP/`, a digit, a dot and a digit.
  private func checkVersion(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !versionChecked, targetEnd >= 0 else { return true }
    var index = max(0, targetEnd - fedBefore)
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == 10 {
        versionChecked = true
        if versionText.last == 13 { versionText.removeLast() }
        let text = versionText
        // No version at all is HTTP/0.9 to the parser, which `FramingRules` answers 505.
        return text.isEmpty
          || text.count == 9 && text[0] == 32 && text[1] == UInt8(ascii: "H")
            && text[2] == UInt8(ascii: "T") && text[3] == UInt8(ascii: "T")
            && text[4] == UInt8(ascii: "P") && text[5] == UInt8(ascii: "/")
            && (48...57).contains(text[6]) && text[7] == UInt8(ascii: ".")
            && (48...57).contains(text[8])
      }
      if versionText.count < 16 { versionText.append(byte) }
    }
    return true
  }

  /// Applies `LineRules` to the bytes outside body data; the first breach, or nil.
  private func checkLines(_ bytes: UnsafeRawBufferPointer) -> ParseFailure? {
    let chunked = isChunked
    var offset = 0
    for span in bodySpans {
      if let breach = lines.accept(bytes, offset..<max(offset, span.start), chunked: chunked) {
        return breach
      }
      offset = max(offset, span.end)
      if chunked { lines.expectDataTerminator() }
    }
    return lines.accept(bytes, offset..<max(offset, bytes.count), chunked: chunked)
  }

  /// The absolute position of callback data.
  private func position(_ at: UnsafePointer<CChar>?) -> Int {
    guard let at, let base else { return fedBefore }
    return fedBefore + (UnsafeRawPointer(at) - base)
  }

  private func pause(_ reason: Stop) {
    stop = reason
    http_parser_pause(raw, 1)
  }

  // MARK: - Callbacks

  fileprivate func messageBegan() {
    place = .head
    target.removeAll(keepingCapacity: true)
    recycleFields()
    headBytes = 0
    bodyBytes = 0
    body = []
    collectsBody = false
    bodyLimit = Int.max
    lastWasValue = false
    lastValueEnd = -1
    targetEnd = -1
    versionText.removeAll(keepingCapacity: true)
    versionChecked = false
  }

  fileprivate func targetPiece(_ at: UnsafePointer<CChar>?, _ length: Int) {
    append(at, length, to: &target)
    targetEnd = position(at) + length
  }

  fileprivate func fieldPiece(_ at: UnsafePointer<CChar>?, _ length: Int) {
    // Trailer fields are framed and bounded by the parser, and ignored.
    guard place == .head else { return }
    if lastWasValue || fields.isEmpty {
      // A field of an earlier request lends its buffers (emptied, capacity kept): a kept-alive
      // connection parses its heads without allocating a name and a value per field.
      var field = spareFields.popLast() ?? Field(name: [], value: [])
      field.name.removeAll(keepingCapacity: true)
      field.value.removeAll(keepingCapacity: true)
      fields.append(field)
      lastWasValue = false
      lastValueEnd = -1
    }
    append(at, length, to: &fields[fields.count - 1].name)
  }

  fileprivate func valuePiece(_ at: UnsafePointer<CChar>?, _ length: Int) {
    guard place == .head, !fields.isEmpty else { return }
    let start = position(at)
    // A value arrives in several pieces only when the input was split between reads; a piece
    // that does not start where the last one ended follows a line break: an obsolete fold.
    if lastWasValue, start != lastValueEnd {
      pause(.failed(.foldedLine))
      return
    }
    lastWasValue = true
    lastValueEnd = start + length
    append(at, length, to: &fields[fields.count - 1].value)
  }

  fileprivate func headComplete() {
    place = .body
    pause(.headComplete)
  }

  fileprivate func bodyPiece(_ at: UnsafePointer<CChar>?, _ length: Int) {
    if let at, let base {
      let start = UnsafeRawPointer(at) - base
      bodySpans.append((start, start + length))
    }
    bodyBytes += length
    guard bodyBytes <= bodyLimit else {
      pause(.bodyOverLimit)
      return
    }
    if collectsBody { append(at, length, to: &body) }
  }

  fileprivate func messageComplete() {
    place = .betweenMessages
    pause(.messageComplete)
  }

  private func append(_ at: UnsafePointer<CChar>?, _ length: Int, to bytes: inout [UInt8]) {
    guard let at, length > 0 else { return }
    bytes.append(contentsOf: UnsafeRawBufferPointer(start: at, count: length))
  }

  // MARK: - Settings

  private static func parser(_ raw: UnsafeMutablePointer<http_parser>?) -> RequestParser {
    Unmanaged<RequestParser>.fromOpaque(raw!.pointee.data).takeUnretainedValue()
  }

  /// The callbacks, shared by every parser.
  nonisolated(unsafe) private static let settings: UnsafeMutablePointer<http_parser_settings> = {
    let settings = UnsafeMutablePointer<http_parser_settings>.allocate(capacity: 1)
    settings.initialize(to: http_parser_settings())
    settings.pointee.on_message_begin = { raw in
      parser(raw).messageBegan()
      return 0
    }
    settings.pointee.on_url = { raw, at, length in
      parser(raw).targetPiece(at, length)
      return 0
    }
    settings.pointee.on_header_field = { raw, at, length in
      parser(raw).fieldPiece(at, length)
      return 0
    }
    settings.pointee.on_header_value = { raw, at, length in
      parser(raw).valuePiece(at, length)
      return 0
    }
    settings.pointee.on_headers_complete = { raw in
      parser(raw).headComplete()
      return 0
    }
    settings.pointee.on_body = { raw, at, length in
      parser(raw).bodyPiece(at, length)
      return 0
    }
    settings.pointee.on_message_complete = { raw in
      parser(raw).messageComplete()
      return 0
    }
    return settings
  }()

  /// http-parser's method names by number.
  private static let methods: [Int: HTTPMethod] = {
    var methods: [Int: HTTPMethod] = [:]
    for number in 0..<64 {
      guard let name = http_method_str(http_method(rawValue: UInt32(number))) else { continue }
      let text = String(cString: name)
      if text != "<unknown>" { methods[number] = HTTPMethod(rawValue: text) }
    }
    return methods
  }()
}
