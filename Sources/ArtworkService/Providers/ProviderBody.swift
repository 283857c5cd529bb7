import ArtworkCore
import JSON

/// The parts of a webhook body the readers share: the JSON object it is (as JSON, or in a
/// multipart field), and the 422 that says what was expected when it is not.
enum ProviderBody {
  /// The body's JSON object: the whole body (whatever its content type says: Jellyfin's is
  /// `text/plain`), or for a multipart body the field `field`. A body that is neither is a 422
  /// that says what `provider` sends.
  static func object(
    _ input: ProviderInput, provider: Provider, field: String? = nil, expected: String
  ) throws(ArtworkError) -> JSONValue {
    let bytes: ArraySlice<UInt8>
    if let field, isMultipart(input.contentType) {
      let parts = try multipart(input, provider: provider, expected: expected)
      guard let part = parts.first(where: { $0.name == field }) else {
        throw notTheirs(
          provider, expected: expected, found: "a multipart body without a \"\(field)\" field")
      }
      bytes = part.body
    } else if isMultipart(input.contentType) {
      throw notTheirs(provider, expected: expected, found: "a multipart body")
    } else {
      bytes = input.body[...]
    }
    let value: JSONValue
    do {
      value = try JSONValue(parsing: Array(bytes))
    } catch {
      throw notTheirs(provider, expected: expected, found: "a body that is not JSON (\(error))")
    }
    guard value.isObject else {
      throw notTheirs(provider, expected: expected, found: "JSON that is not an object")
    }
    return value
  }

  /// The parts of a multipart body; a body that does not parse is a 422 saying what was
  /// expected.
  static func multipart(_ input: ProviderInput, provider: Provider, expected: String)
    throws(ArtworkError) -> [MultipartPart]
  {
    do {
      return try Multipart.parse(body: input.body, contentType: input.contentType ?? "")
    } catch {
      throw notTheirs(provider, expected: expected, found: "a malformed multipart body")
    }
  }

  /// Whether `contentType` is `multipart/form-data`.
  static func isMultipart(_ contentType: String?) -> Bool {
    mediaTypeEssence(contentType ?? "") == "multipart/form-data"
  }

  /// The 422 for a body that is not `provider`'s: what was found, and what was expected.
  static func notTheirs(_ provider: Provider, expected: String, found: String) -> ArtworkError {
    ArtworkError(
      .unprocessableContent,
      "This is not a \(provider.title) webhook body: found \(found); expected \(expected).")
  }
}
