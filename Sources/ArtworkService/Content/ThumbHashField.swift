import ArtworkCore
import ThumbHashCodec

/// The check of an `image_thumbhash` a caller sends: a phone draws nothing for a string that is
/// not a ThumbHash, so one that does not decode is refused, and a BlurHash (what Jellyfin
/// stores) is named as such.
enum ThumbHashField {
  /// The longest ThumbHash, base64 (25 bytes of the longest hash is 36 characters; room for
  /// padding and a future encoder).
  static let maxLength = 64

  /// Throws `.unprocessableContent` unless `text` decodes as a ThumbHash.
  static func check(_ text: String) throws(ArtworkError) {
    let failure: ThumbHashError
    if text.utf8.count > maxLength {
      failure = .truncatedHash(expected: maxLength, actual: text.utf8.count)
    } else {
      do throws(ThumbHashError) {
        _ = try ThumbHash.decode(base64: text)
        return
      } catch {
        failure = error
      }
    }
    let shown = ClientText.quoted(String(text.prefix(40)) + (text.count > 40 ? "…" : ""))
    if isBlurHash(text) {
      throw ArtworkError(
        .unprocessableContent,
        "image_thumbhash \(shown) is a BlurHash, not a ThumbHash; phones draw only a ThumbHash. Send the image's ThumbHash (POST /v1/thumbhash computes it), or leave image_thumbhash out and send image_url: it is filled in.",
        members: [.string("field", "image_thumbhash"), .string("reason", "blurhash")])
    }
    throw ArtworkError(
      .unprocessableContent,
      "image_thumbhash \(shown) is not a ThumbHash (\(failure)); send the base64 ThumbHash of the image (POST /v1/thumbhash computes it), or leave it out and send image_url: it is filled in.",
      members: [.string("field", "image_thumbhash"), .string("reason", "invalid")])
  }

  /// The 83 characters of BlurHash's base 83.
  private static let base83 = Array(
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

  /// Whether `text` has a BlurHash's form: base-83 characters, as many as its first one (the
  /// count of components, 1...9 each way) says: 4 + 2 x components.
  static func isBlurHash(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count >= 6, bytes.allSatisfy(base83.contains),
      let sizeFlag = base83.firstIndex(of: bytes[0])
    else { return false }
    let components = (sizeFlag % 9 + 1) * (sizeFlag / 9 + 1)
    return sizeFlag < 81 && bytes.count == 4 + 2 * components
  }
}
