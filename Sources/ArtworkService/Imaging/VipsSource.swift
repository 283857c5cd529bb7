import CVips

/// Owns a libvips memory source over a private copy of the input bytes.
///
/// NOTE: libvips images read their source lazily, long after the call that opened them; the copy
/// (held by libvips' own reference count) keeps every image made from it valid, whatever Swift
/// does with the original array.
final class VipsSource {
  let pointer: UnsafeMutablePointer<CVips.VipsSource>

  /// Copies `bytes` (which must not be empty) into a new source.
  init(copying bytes: [UInt8]) throws(ArtworkError) {
    let made = bytes.withUnsafeBytes { artwork_vips_source_copy($0.baseAddress, $0.count) }
    guard let made else {
      throw Vips.failure(.internal, "The image could not be read.", call: "vips_source_new")
    }
    pointer = made
  }

  deinit { artwork_vips_unref(pointer) }
}
