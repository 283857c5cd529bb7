import ArtworkCore
import HTTP
import JSON

/// Where the image of a request comes from. A fetched URL body enters the pipeline exactly where
/// an upload does (`ArtworkProcessor.validate`).
enum SourceInput: Sendable, Equatable {
  /// Bytes sent by the client (the request body, or the `image` part of a form: a slice of the
  /// body, not a copy), with the media type it declared for them (lowercased essence).
  case upload(bytes: ArraySlice<UInt8>, declaredType: String?)
  /// A URL for the service to fetch.
  case url(String)
}

/// A parsed `POST /v1/artwork`, `POST /v1/thumbhash` or `POST /v1/check` request: the source
/// and its option fields.
struct ArtworkRequest: Sendable {
  var source: SourceInput
  /// Option fields from the query string, form fields or JSON keys (body wins over query).
  var fields: [String: String]

  /// The option names a request may carry; anything else is a 400 (catches typos like `sise`).
  static let optionNames: Set<String> = ["shape", "size", "crop"]

  /// The request as parsed once: by the route's fast path when it ran (`context.parsed`), else
  /// now, in the input form the head check found.
  static func parsed(_ request: HTTPRequest, _ context: WriteContext) throws(ArtworkError)
    -> ArtworkRequest
  {
    if let earlier = context.parsed { return earlier }
    return try parse(request, form: context.form)
  }

  /// Parses the three accepted inputs: `multipart/form-data` with a file part `image`, a raw
  /// `image/*` body, or JSON `{"url": ...}`, in `form` (the head check's; by default read from
  /// the request's Content-Type).
  static func parse(_ request: HTTPRequest, form given: InputForm? = nil) throws(ArtworkError)
    -> ArtworkRequest
  {
    let form: InputForm
    if let given {
      form = given
    } else {
      form = try InputForm(contentType: request.headers["Content-Type"])
    }
    var fields = request.query
    let source: SourceInput
    switch form {
    case .multipart(let contentType):
      let parts = try Multipart.parse(body: request.body, contentType: contentType)
      var image: MultipartPart?
      var url: String?
      for part in parts {
        switch part.name {
        case "image":
          guard image == nil else {
            throw ArtworkError(.badRequest, "The form has more than one `image` part; send one.")
          }
          image = part
        case "url": url = String(decoding: part.body, as: UTF8.self)
        default: fields[part.name] = String(decoding: part.body, as: UTF8.self)
        }
      }
      if let image {
        source = .upload(
          bytes: image.body, declaredType: image.contentType.map(mediaTypeEssence))
      } else if let url {
        source = .url(url)
      } else {
        throw ArtworkError(
          .badRequest, "The form has no file part named `image` (nor a `url` field).")
      }
    case .json:
      let value: JSONValue
      do throws(JSONSyntaxError) {
        value = try JSONValue(parsing: request.body)
      } catch {
        throw ArtworkError(.badRequest, "The body is not valid JSON: \(error).")
      }
      guard let object = value.objectMembers else {
        throw ArtworkError(
          .badRequest, "The JSON body must be an object, e.g. {\"url\": \"https://...\"}.")
      }
      guard case .string(let url) = object["url"] else {
        throw ArtworkError(
          .badRequest, "The JSON body needs a string `url`, e.g. {\"url\": \"https://...\"}.")
      }
      for (key, value) in object where key != "url" {
        switch value {
        case .string(let text): fields[key] = text
        case .number(let literal): fields[key] = Self.optionText(literal)
        default:
          throw ArtworkError(
            .badRequest, "The JSON key `\(ClientText.clipped(key))` must be a string or a number.")
        }
      }
      source = .url(url)
    case .image(let mediaType):
      source = .upload(bytes: request.body[...], declaredType: mediaType)
    }
    for key in fields.keys where !optionNames.contains(key) {
      throw ArtworkError(
        .badRequest,
        "Unknown option `\(ClientText.clipped(key))`; the options are shape, size and crop.")
    }
    return ArtworkRequest(source: source, fields: fields)
  }
}

extension ArtworkRequest {
  /// A JSON number as option text: `400.0` and `4e2` read as `400`, as a relay that sends
  /// floats means; any other number stays as written (and fails the option's own check).
  static func optionText(_ literal: String) -> String {
    if literal.utf8.allSatisfy({ (48...57).contains($0) }) { return literal }
    guard literal.utf8.count <= 32, let number = Double(literal), number.isFinite,
      number == number.rounded(), let integer = Int(exactly: number)
    else { return literal }
    return String(integer)
  }

  /// The request parsed when it is a valid JSON `{"url": ...}` request of at most
  /// `quickJSONLimit` bytes; nil otherwise, without touching any other kind of body (a multipart
  /// upload is not parsed twice). For answers on the server thread, which must stay quick.
  static func parseJSON(_ request: HTTPRequest, form: InputForm) -> ArtworkRequest? {
    guard request.body.count <= quickJSONLimit, form == .json else { return nil }
    return try? parse(request, form: form)
  }

  /// A URL request is a few hundred bytes; anything far larger is parsed off the server thread.
  static var quickJSONLimit: Int { 16 * 1024 }

}
